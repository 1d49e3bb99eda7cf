import RosterDomain

// A tenant definition's directory and schedules as `DefinitionPlanner` reads them, and its
// plan's objects on the wire.

extension DefinitionDocument {
    public init(_ wire: Roster_V1_DefinitionDocument) {
        self.init(
            managesPeople: wire.managesPeople, people: wire.people.map(Employee.init),
            schedules: wire.schedules.map(ScheduleDefinition.init))
        managesEscalationPolicies = wire.managesEscalationPolicies
        escalationPolicies = wire.escalationPolicies.map(EscalationPolicy.init)
        managesServices = wire.managesServices
        services = wire.services.map(PagingService.init)
    }
}

extension Roster_V1_DefinitionChange {
    public init(
        _ action: Roster_V1_DefinitionAction, _ kind: String, _ id: String, _ name: String,
        fields: [Roster_V1_FieldChange] = [],
        location: String = ""
    ) {
        self.init()
        (self.action, self.kind, self.id, self.name, self.fields, self.location) = (
            action, kind, id, name, fields, location
        )
    }

    public init(_ change: DefinitionChange) {
        let action: Roster_V1_DefinitionAction =
            switch change.action {
            case .create: .create
            case .change: .change
            case .delete: .delete
            case .notInFile: .notInFile
            }
        self.init(action, change.kind, change.id, change.name, location: change.location)
        fields = change.fields.map { field in
            Roster_V1_FieldChange.with { ($0.field, $0.before, $0.after) = (field.field, field.before, field.after) }
        }
    }
}
