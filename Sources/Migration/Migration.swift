import Foundation
import RosterAsCode
import RosterDomain

/// The on-call systems `roster-client migrate --from` reads (docs/MIGRATING.md).
public enum MigrationSource: String, Sendable, Hashable, CaseIterable {
    case pagerDuty = "pagerduty"
    case opsgenie
    case goAlert = "goalert"
    case grafanaOnCall = "grafana-oncall"

    /// How people and documents name it.
    public var title: String {
        switch self {
        case .pagerDuty: "PagerDuty"
        case .opsgenie: "Opsgenie"
        case .goAlert: "GoAlert"
        case .grafanaOnCall: "Grafana OnCall"
        }
    }

    /// Which source an export's root looks like, by the key only it has: GoAlert's `rotations`,
    /// Grafana OnCall's `on_call_shifts`, Opsgenie's `escalations` or rotations inside its
    /// schedules; else PagerDuty's (layers inside its schedules, or none of these).
    static func recognized(_ root: SourceJSON) -> MigrationSource {
        if root["rotations"] != nil { return .goAlert }
        if root["on_call_shifts"] != nil { return .grafanaOnCall }
        let schedules = (root["schedules"]?.elements ?? []).map { $0["schedule"] ?? $0 }
        if root["escalations"] != nil || schedules.contains(where: { $0["rotations"] != nil || $0["timezone"] != nil })
        {
            return .opsgenie
        }
        return .pagerDuty
    }

    /// The prefix of the Roster ids made from this source's ids, so that a second run finds
    /// what the first made (`pagerduty-PXPGF42`).
    var idPrefix: String { rawValue + "-" }
}

/// An export read into Roster's terms: the people, schedules, escalation policies and services
/// a definition file holds, what each source id became, and the report of what was mapped how.
public struct Migration: Sendable {
    public var source: MigrationSource
    /// Only what the export holds (people matched in the directory as they are there).
    public var state: RosterState
    public var report: MigrationReport
    /// Source user id → Roster person id; source schedule id → Roster schedule id.
    public var personIDs: [String: String]
    public var scheduleIDs: [String: String]

    /// The largest export or rendered list read.
    public static let maxExportBytes = SourceJSON.maxBytes

    /// The definition file (docs/AS-CODE.md) that makes it: `plan -f` then `apply -f`.
    public func definition(now: UnixMillis, file: String) -> String {
        DefinitionExport.yaml(
            state, settings: nil, now: now,
            comments: [
                "Migrated from \(source.title) (\(file)) by roster-client migrate: read the report before applying"
            ])
    }

    /// Reads `data`, an export of `source` (docs/MIGRATING.md says each one's shape). People are
    /// matched by e-mail (case-insensitive) to `directory`; the others get ids made from their
    /// source ids. Throws every problem at once, each with its JSON path.
    public static func read(
        _ data: Data, from source: MigrationSource, name: String, directory: RosterState, now: UnixMillis
    ) throws(MigrationError) -> Migration {
        let root = try SourceJSON.parse(data, name: name)
        var reader = MigrationBuilder(source: source, directory: directory, now: now)
        switch source {
        case .pagerDuty: reader.readPagerDuty(root)
        case .goAlert: reader.readGoAlert(root)
        case .opsgenie: reader.readOpsgenie(root)
        case .grafanaOnCall: reader.readGrafanaOnCall(root)
        }
        if !reader.reading.problems.isEmpty { throw MigrationError(problems: reader.reading.problems) }
        return reader.migration
    }
}

/// The state a migration builds while it reads, shared by every source's reader.
struct MigrationBuilder {
    let source: MigrationSource
    let directory: RosterState
    let now: UnixMillis
    var reading = SourceReading()
    var people: [Employee] = []
    var schedules: [ScheduleDefinition] = []
    var policies: [EscalationPolicy] = []
    var services: [PagingService] = []
    var personIDs: [String: String] = [:]
    var scheduleIDs: [String: String] = [:]
    /// E-mail (lowercased) → person id: the directory's and the export's so far.
    private var emails: [String: String] = [:]

    init(source: MigrationSource, directory: RosterState, now: UnixMillis) {
        (self.source, self.directory, self.now) = (source, directory, now)
        for person in directory.employees.values where !person.email.isEmpty {
            emails[person.email.lowercased()] = person.id
        }
    }

    var migration: Migration {
        Migration(
            source: source,
            state: RosterState(
                tenant: directory.tenant, employees: people, schedules: schedules, escalationPolicies: policies,
                services: services),
            report: reading.report, personIDs: personIDs, scheduleIDs: scheduleIDs)
    }

    /// Roster keeps one team on a person, schedule, policy or service: the first, said when
    /// the source had more.
    mutating func noteTeams(_ names: [String], at path: String) {
        guard names.count > 1 else { return }
        reading.report.add(
            .changed, path, "in teams \(names.joined(separator: ", ")): Roster keeps one team here, \(names[0])")
    }

    /// A person of the export by name, for the report.
    func name(_ personID: String) -> String {
        people.first { $0.id == personID }?.fullName ?? personID
    }

    /// The Roster id for a source id.
    func id(_ sourceID: String) -> String { source.idPrefix + sourceID }

    /// A person of the export: the directory's person with this e-mail as they are, or a new one
    /// with an id made from the source's. The name is split at its last space (Roster keeps a
    /// first and a last name, and sorts by the last).
    mutating func addPerson(
        sourceID: String, name: String, email given: String, position: String, teams: [String], at path: String
    ) {
        var email = given
        if !email.isEmpty, !EmailAddress.isPlausible(email) {
            reading.report.add(
                .changed, path, "\"\(email)\" is not an e-mail address Roster takes: written without one")
            email = ""
        }
        if !email.isEmpty, let known = emails[email.lowercased()], let person = directory.employees[known] {
            personIDs[sourceID] = person.id
            people.append(person)
            reading.report.add(
                .exact, path, "\(name) <\(email)> is \(person.fullName) (\(person.id)) already in Roster")
            return
        }
        let words = name.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var first = words.dropLast().joined(separator: " "), last = words.last ?? ""
        if first.isEmpty {
            // One word: Roster needs both names. The word is the last name (what lists sort by).
            first = last.isEmpty ? sourceID : last
            last = last.isEmpty ? sourceID : last
            reading.report.add(
                .changed, path, "\"\(name)\" is one word: written as first and last name \"\(first) \(last)\"")
        }
        if email.isEmpty {
            reading.report.add(
                .changed, path,
                "\(name) has no e-mail: created as \(id(sourceID)); a second run finds them by that id only")
        }
        noteTeams(teams, at: path + ".teams")
        let person = Employee(
            id: id(sourceID), firstName: first, lastName: last, email: email, position: position,
            team: teams.first ?? "")
        personIDs[sourceID] = person.id
        if !email.isEmpty { emails[email.lowercased()] = person.id }
        people.append(person)
    }
}
