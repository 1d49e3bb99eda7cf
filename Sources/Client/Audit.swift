import Foundation
import RosterDomain
import RosterProtocol
import SwiftProtobuf

/// What `audit` asks for: entries since an instant, touching a person or a schedule.
public struct AuditQuery: Sendable {
    public var since: UnixMillis?
    /// An employee id or full name.
    public var person: String?
    /// A schedule id or name.
    public var schedule: String?
    /// The newest `limit` matching entries (the server returns at most 1000).
    public var limit: Int?

    public init(since: UnixMillis? = nil, person: String? = nil, schedule: String? = nil, limit: Int? = nil) {
        self.since = since
        self.person = person
        self.schedule = schedule
        self.limit = limit
    }
}

/// One audit-log entry (docs/PROTOCOL.md, "Audit log").
public struct AuditEntry: Sendable {
    public var wire: Roster_V1_AuditEntry

    public init(wire: Roster_V1_AuditEntry) { self.wire = wire }

    public var at: UnixMillis { wire.atMs }
    /// "change", "auth.failed", "token.created", "token.revoked", "webhook.added", "webhook.removed",
    /// "reminder.added" or "reminder.removed".
    public var kind: String { wire.kind }

    /// The entry as one JSON object, for `admin audit --json` and log pipelines: the schema's
    /// field names, 64-bit numbers (ids, revisions, epochs, `*_ms` instants) as JSON numbers
    /// rather than protobuf's strings, and `at`, the entry's instant in ISO 8601 (UTC).
    public var jsonLine: String {
        var options = JSONEncodingOptions()
        options.preserveProtoFieldNames = true
        guard let text = try? wire.jsonString(options: options),
            var object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        else { return "{}" }
        for (key, value) in object { object[key] = Self.numbers(value, key: key) }
        if let id = object["id"] as? String, let number = UInt64(id) { object["id"] = NSNumber(value: number) }
        object["at"] = TimeText.iso8601Millis(wire.atMs)
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The schema's 64-bit fields, which protobuf's JSON mapping writes as strings.
    private static func isWide(_ key: String) -> Bool {
        key.hasSuffix("_ms") || ["revision", "epoch", "sequence"].contains(key)
    }

    private static func numbers(_ value: Any, key: String) -> Any {
        switch value {
        case let object as [String: Any]:
            return object.reduce(into: [String: Any]()) { result, pair in
                result[pair.key] = numbers(pair.value, key: pair.key)
            }
        case let array as [Any]:
            return array.map { numbers($0, key: key) }
        case let text as String where isWide(key):
            if let number = Int64(text) { return NSNumber(value: number) }
            if let number = UInt64(text) { return NSNumber(value: number) }
            return text
        default:
            return value
        }
    }

    /// Who acted: "ops laptop (token 1a2b3c4d5e6f)", "local admin", "demo roller".
    public var actor: String {
        switch (wire.actor.isEmpty, wire.tokenID.isEmpty) {
        case (false, false) where wire.actor != wire.tokenID: "\(wire.actor) (token \(wire.tokenID))"
        case (_, false): "token \(wire.tokenID)"
        case (false, true): wire.actor
        case (true, true): "unknown"
        }
    }

    /// One line per change, with before and after values; `names` maps employee and schedule
    /// ids to names where the entry itself does not carry them.
    public func changeLines(names: [String: String] = [:]) -> [String] {
        wire.changes.map { AuditChangeText(names: names).describe($0) }
    }
}

extension RosterClient {
    /// The tenant's audit log (admin tokens only), oldest first, and whether older matching
    /// entries were left out.
    public func audit(_ query: AuditQuery) async throws -> (entries: [AuditEntry], truncated: Bool) {
        let message = RosterMessage.getAudit(
            .with {
                $0.sinceMs = query.since ?? 0
                $0.person = query.person ?? ""
                $0.schedule = query.schedule ?? ""
                $0.limit = UInt32(clamping: query.limit ?? 0)
            })
        guard case .audit(let answer) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected Audit")
        }
        return (answer.entries.map(AuditEntry.init(wire:)), answer.truncated)
    }
}

/// Says what one audited change did, in words: "motd: "a" → "b"", "employee Ada Lovelace:
/// team "Core" → "Platform"".
struct AuditChangeText {
    var names: [String: String]

    func describe(_ audited: Roster_V1_AuditChange) -> String {
        guard let change = RosterChange(audited.change) else { return "a change this client does not know" }
        let before = audited.hasBefore ? RosterChange(audited.before) : nil
        switch (change, before) {
        case (.employeeUpserted(let after), .employeeUpserted(let old)?):
            let diff = Self.fieldChanges(old, after)
            return "employee \(after.fullName): " + (diff.isEmpty ? "unchanged" : diff.joined(separator: ", "))
        case (.employeeUpserted(let employee), _):
            return "employee added: \(employee.fullName) (\(employee.id))"
        case (.employeeDeleted(let id), let old):
            if case .employeeUpserted(let employee)? = old { return "employee removed: \(employee.fullName) (\(id))" }
            return "employee removed: \(id)"
        case (.shiftAdded(let shift), .shiftAdded(let old)?):
            return "shift \(shift.id): \(describe(old)) → \(describe(shift))"
        case (.shiftAdded(let shift), _):
            return "shift added: \(shift.id) \(describe(shift))"
        case (.shiftDeleted(let id), let old):
            if case .shiftAdded(let shift)? = old { return "shift removed: \(id) \(describe(shift))" }
            return "shift removed: \(id)"
        case (.motdSet(let motd), let old):
            if case .motdSet(let previous)? = old { return "motd: \(Self.quoted(previous)) → \(Self.quoted(motd))" }
            return "motd: \(Self.quoted(motd))"
        case (.scheduleUpserted(let schedule), .scheduleUpserted(let old)?):
            let diff = Self.scheduleChanges(old, schedule)
            return "schedule \(schedule.name): " + (diff.isEmpty ? "unchanged" : diff.joined(separator: ", "))
        case (.scheduleUpserted(let schedule), _):
            return "schedule added: \(schedule.name) (\(schedule.id), \(schedule.zone))"
        case (.scheduleDeleted(let id), let old):
            if case .scheduleUpserted(let schedule)? = old { return "schedule removed: \(schedule.name) (\(id))" }
            return "schedule removed: \(id)"
        case (.timeOffSet(let entry), .timeOffSet(let old)?):
            return "time off \(entry.id): \(describe(old)) → \(describe(entry))"
        case (.timeOffSet(let entry), _):
            return "time off added: \(entry.id) \(describe(entry))"
        case (.timeOffDeleted(let id), let old):
            if case .timeOffSet(let entry)? = old { return "time off removed: \(id) \(describe(entry))" }
            return "time off removed: \(id)"
        case (.holidaysSet(let calendar), .holidaysSet(let old)?):
            return "holidays \(calendar.name): \(old.days.count) → \(calendar.days.count) days"
        case (.holidaysSet(let calendar), _):
            return "holidays added: \(calendar.name) (\(calendar.days.count) days)"
        case (.holidaysDeleted(let name), _):
            return "holidays removed: \(name)"
        case (.escalationPolicySet(let policy), .escalationPolicySet(let old)?):
            return "escalation policy \(policy.name): \(old.steps.count) → \(policy.steps.count) steps, "
                + "repeat \(old.repeatCount) → \(policy.repeatCount)"
        case (.escalationPolicySet(let policy), _):
            return "escalation policy added: \(policy.name) (\(policy.id), \(policy.steps.count) steps)"
        case (.escalationPolicyDeleted(let id), let old):
            if case .escalationPolicySet(let policy)? = old {
                return "escalation policy removed: \(policy.name) (\(id))"
            }
            return "escalation policy removed: \(id)"
        case (.serviceSet(let service), .serviceSet(let old)?):
            return "service \(service.name): policy \(names[old.policyID] ?? old.policyID) → "
                + "\(names[service.policyID] ?? service.policyID)"
        case (.serviceSet(let service), _):
            return
                "service added: \(service.name) (\(service.id)) through \(names[service.policyID] ?? service.policyID)"
        case (.serviceDeleted(let id), let old):
            if case .serviceSet(let service)? = old { return "service removed: \(service.name) (\(id))" }
            return "service removed: \(id)"
        }
    }

    private func describe(_ entry: TimeOff) -> String {
        var text =
            "\(names[entry.employeeID] ?? entry.employeeID) \(Self.instant(entry.start))–\(Self.instant(entry.end))"
        if !entry.reason.isEmpty { text += " (\(entry.reason))" }
        return text
    }

    private func describe(_ shift: Shift) -> String {
        let who = names[shift.employeeID] ?? shift.employeeID
        var text = "\(who) \(Self.instant(shift.start))–\(Self.instant(shift.end))"
        if !shift.role.isEmpty { text += " \(shift.role)" }
        if !shift.scheduleID.isEmpty { text += " on \(names[shift.scheduleID] ?? shift.scheduleID)" }
        return text
    }

    private static func instant(_ millis: UnixMillis) -> String {
        Date(timeIntervalSince1970: Double(millis) / 1000).formatted(.iso8601)
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }

    private static func fieldChanges(_ old: Employee, _ new: Employee) -> [String] {
        let fields: [(String, String, String)] = [
            ("first name", old.firstName, new.firstName), ("last name", old.lastName, new.lastName),
            ("email", old.email, new.email), ("phone", old.phone, new.phone), ("position", old.position, new.position),
            ("team", old.team, new.team),
            ("projects", old.projects.joined(separator: ", "), new.projects.joined(separator: ", ")),
            ("biography", old.biography, new.biography), ("photo URL", old.photoURL, new.photoURL),
            ("type", old.type.rawValue, new.type.rawValue),
            ("chat", ChatHandles.text(old.chat), ChatHandles.text(new.chat)),
        ]
        return fields.filter { $0.1 != $0.2 }.map { "\($0.0) \(quoted($0.1)) → \(quoted($0.2))" }
    }

    private static func scheduleChanges(_ old: ScheduleDefinition, _ new: ScheduleDefinition) -> [String] {
        var lines: [String] = []
        let fields: [(String, String, String)] = [
            ("name", old.name, new.name), ("zone", old.zone, new.zone), ("team", old.team, new.team),
            ("description", old.description, new.description),
        ]
        lines += fields.filter { $0.1 != $0.2 }.map { "\($0.0) \(quoted($0.1)) → \(quoted($0.2))" }
        let oldRotations = Dictionary(
            old.layers.flatMap(\.rotations).map { ($0.id + "#\($0.version)", $0) }, uniquingKeysWith: { a, _ in a })
        let newRotations = Dictionary(
            new.layers.flatMap(\.rotations).map { ($0.id + "#\($0.version)", $0) }, uniquingKeysWith: { a, _ in a })
        for key in newRotations.keys.sorted() where oldRotations[key] == nil { lines.append("rotation \(key) added") }
        for key in oldRotations.keys.sorted() where newRotations[key] == nil { lines.append("rotation \(key) removed") }
        for key in newRotations.keys.sorted() where oldRotations[key] != nil && oldRotations[key] != newRotations[key] {
            lines.append("rotation \(key) changed")
        }
        let oldOverrides = Set(old.overrides.map(\.id)), newOverrides = Set(new.overrides.map(\.id))
        for id in newOverrides.subtracting(oldOverrides).sorted() { lines.append("override \(id) added") }
        for id in oldOverrides.subtracting(newOverrides).sorted() { lines.append("override \(id) removed") }
        let oldSpans = Set(old.temporary), newSpans = Set(new.temporary)
        for span in new.temporary where !oldSpans.contains(span) {
            lines.append(
                "temporary schedule \(span.id) \(instant(span.start))–\(instant(span.end)) (\(span.shifts.count) shifts)"
            )
        }
        for span in old.temporary where !newSpans.contains(span) && !new.temporary.contains(where: { $0.id == span.id })
        {
            lines.append("temporary schedule \(span.id) removed")
        }
        if old.readersMayVolunteer != new.readersMayVolunteer {
            lines.append(new.readersMayVolunteer ? "readers may volunteer" : "readers may no longer volunteer")
        }
        return lines
    }
}

/// A calendar feed: its text now, and with a token, the URL a calendar program subscribes to.
public struct CalendarFeed: Sendable {
    /// The iCalendar text, as the feed's URL serves it now.
    public var ics: String
    /// `http(s)://HOST:PORT/v1/calendar/TOKEN.ics`, when a token was asked for.
    public var url: String?
}

extension RosterClient {
    /// The feed of one schedule or one person (id or name). With `subscribe`, the server also
    /// makes a calendar token for it (read-only, for that feed only, revocable) and the URL names
    /// the host this client connects to.
    public func calendar(
        schedule: String? = nil, person: String? = nil, subscribe: Bool = false, alarm: String? = nil,
        label: String = ""
    ) async throws -> CalendarFeed {
        let message = RosterMessage.getCalendar(
            .with {
                $0.schedule = schedule ?? ""
                $0.person = person ?? ""
                $0.createToken = subscribe
                $0.alarm = alarm ?? ""
                $0.label = label
            })
        guard case .calendar(let answer) = try await request(message) else {
            throw RosterClientError.protocolViolation("expected Calendar")
        }
        var url: String?
        if !answer.token.isEmpty {
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            var query = ""
            if let alarm, !alarm.isEmpty { query = "?alarm=" + alarm }
            url =
                "\(answer.https ? "https" : "http")://\(host):\(answer.httpPort)/v1/calendar/\(answer.token).ics\(query)"
        }
        return CalendarFeed(ics: answer.ics, url: url)
    }

    /// The calendar links (calendar tokens) still working that this client's token made; an
    /// admin's token sees every one of the tenant. Their URLs are not shown again.
    public func calendarLinks() async throws -> [Roster_V1_CalendarLink] {
        guard case .calendar(let answer) = try await request(.getCalendar(.with { $0.listLinks = true })) else {
            throw RosterClientError.protocolViolation("expected Calendar")
        }
        return answer.links
    }

    /// Revokes a calendar link (by its token id) this client's token made, or any with an admin's.
    public func revokeCalendarLink(_ id: String) async throws {
        guard case .calendar = try await request(.getCalendar(.with { $0.revokeLink = id })) else {
            throw RosterClientError.protocolViolation("expected Calendar")
        }
    }
}
