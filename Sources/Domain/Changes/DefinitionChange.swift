/// The directory and schedule part of a tenant definition (schedules as code, docs/AS-CODE.md),
/// as `DefinitionPlanner` reads it: people (when the file manages them) and schedules with their
/// layers, rotations and standing overrides, people named by id or full name.
public struct DefinitionDocument: Sendable, Hashable {
    public var managesPeople: Bool
    public var people: [Employee]
    public var schedules: [ScheduleDefinition]
    /// Escalation policies (steps naming people and schedules by id or name) and services (their
    /// policy by id or name), each managed when the file holds its section.
    public var managesEscalationPolicies = false
    public var escalationPolicies: [EscalationPolicy] = []
    public var managesServices = false
    public var services: [PagingService] = []

    public init(managesPeople: Bool = false, people: [Employee] = [], schedules: [ScheduleDefinition] = []) {
        (self.managesPeople, self.people, self.schedules) = (managesPeople, people, schedules)
    }
}

/// One object a definition's plan creates, changes or deletes, with the fields it changes and
/// its place in the document.
public struct DefinitionChange: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        case create, change
        /// Only with prune.
        case delete
        /// Kept: the file does not hold it and prune was not asked for.
        case notInFile
    }

    public var action: Action
    /// person, schedule, rotation, override.
    public var kind: String
    public var id: String
    /// What a reader knows it by: "Platform primary / rot_1".
    public var name: String
    public var fields: [FieldChange]
    /// Where in the document: "schedules[0].layers[0].rotations[1]".
    public var location: String

    public init(
        _ action: Action, _ kind: String, _ id: String, _ name: String, fields: [FieldChange] = [],
        location: String = ""
    ) {
        (self.action, self.kind, self.id, self.name, self.fields, self.location) = (
            action, kind, id, name, fields, location
        )
    }
}

/// A field whose text differs between what is stored and what the file says.
public struct FieldChange: Sendable, Hashable {
    public var field: String
    public var before: String
    public var after: String

    public init(field: String, before: String, after: String) {
        (self.field, self.before, self.after) = (field, before, after)
    }
}
