import Foundation
import RosterDomain
import RosterProtocol

/// `roster-client export --format yaml`: a tenant's definition as a file `plan` and `apply` read
/// back (docs/AS-CODE.md). It holds what a definition describes, as it is at `now`: people,
/// schedules with their current rotations and standing overrides, webhooks (never a secret),
/// reminders and announcements. Ids are written, so that applying the file finds each object;
/// people are named by full name where that is unambiguous.
public enum DefinitionExport {
    public struct Settings: Sendable {
        public var webhooks: [Roster_V1_Webhook]
        public var reminders: [Roster_V1_ReminderRule]
        public var announcements: [Roster_V1_AnnounceRule]

        public init(
            webhooks: [Roster_V1_Webhook] = [], reminders: [Roster_V1_ReminderRule] = [],
            announcements: [Roster_V1_AnnounceRule] = []
        ) {
            (self.webhooks, self.reminders, self.announcements) = (webhooks, reminders, announcements)
        }
    }

    /// The file for `state`. Without `settings` (a file made elsewhere than from a tenant, as
    /// `migrate` makes one) the webhook, reminder and announcement sections are left out, and so
    /// are empty escalation sections: a section left out is left alone by apply, even with prune.
    /// `comments` are written first, each as a `#` line.
    public static func yaml(_ state: RosterState, settings: Settings?, now: UnixMillis, comments: [String] = [])
        -> String
    {
        var out = YAMLLines()
        for comment in comments { out.line(0, "# " + comment) }
        out.line(0, "# Roster tenant definition (docs/AS-CODE.md). Check it: roster-client plan -f FILE")
        out.line(0, "# Its JSON Schema, for editors: docs/roster-definition.schema.json")
        out.line(0, "version: \(DefinitionFile.version)")
        func name(_ id: String) -> String {
            guard let person = state.employees[id] else { return id }
            return state.employee(idOrName: person.fullName)?.id == id ? person.fullName : id
        }
        out.line(0, "people:" + (state.employees.isEmpty ? " []" : ""))
        for person in state.sortedEmployees {
            out.item(1, "id", person.id)
            let fields: [(String, String)] = [
                ("firstName", person.firstName), ("lastName", person.lastName), ("email", person.email),
                ("phone", person.phone), ("position", person.position), ("team", person.team),
            ]
            for (key, value) in fields where !value.isEmpty || key.hasSuffix("Name") { out.field(2, key, value) }
            if !person.projects.isEmpty { out.line(2, "projects: " + YAMLLines.flow(person.projects)) }
            for (key, value) in [("biography", person.biography), ("photoURL", person.photoURL)] where !value.isEmpty {
                out.field(2, key, value)
            }
            if person.type != .unspecified { out.field(2, "type", person.type.rawValue) }
            if !person.chat.isEmpty {
                out.line(2, "chat:")
                for (platform, handle) in person.chat.sorted(by: { $0.key < $1.key }) { out.field(3, platform, handle) }
            }
        }
        let schedules = state.sortedSchedules.filter { $0.id != ScheduleDefinition.defaultID || $0.hasRules }
        out.line(0, "schedules:" + (schedules.isEmpty ? " []" : ""))
        for schedule in schedules { write(schedule, to: &out, now: now, name: name) }
        if settings != nil || !state.escalation.policies.isEmpty || !state.escalation.services.isEmpty {
            writeEscalation(state, to: &out, name: name)
        }
        guard let settings else { return out.text }
        out.line(0, "webhooks:" + (settings.webhooks.isEmpty ? " []" : ""))
        for webhook in settings.webhooks {
            out.item(1, "id", webhook.id)
            out.field(2, "url", webhook.url)
            if !webhook.format.isEmpty, webhook.format != "json" { out.field(2, "format", webhook.format) }
            if !webhook.events.isEmpty { out.line(2, "events: " + YAMLLines.flow(webhook.events)) }
            if !webhook.schedules.isEmpty {
                out.line(2, "schedules: " + YAMLLines.flow(webhook.schedules.map { state.schedules[$0]?.name ?? $0 }))
            }
        }
        out.line(0, "reminders:" + (settings.reminders.isEmpty ? " []" : ""))
        for rule in settings.reminders {
            out.item(1, "id", rule.id)
            if !rule.schedule.isEmpty {
                out.field(2, "schedule", state.schedules[rule.schedule]?.name ?? rule.schedule)
            }
            if !rule.person.isEmpty { out.field(2, "person", name(rule.person)) }
            if rule.leadMinutes > 0 {
                out.field(2, "before", DurationText.format(minutes: Int(rule.leadMinutes)))
            } else {
                out.line(2, "daysBefore: \(rule.daysBefore)")
                out.field(2, "at", RestrictionWindow.clockText(Int(rule.atMinuteOfDay)))
            }
            if !rule.timeZone.isEmpty { out.field(2, "zone", rule.timeZone) }
        }
        out.line(0, "announcements:" + (settings.announcements.isEmpty ? " []" : ""))
        for rule in settings.announcements {
            out.item(1, "id", rule.id)
            out.field(2, "schedule", state.schedules[rule.schedule]?.name ?? rule.schedule)
            out.field(2, "webhook", rule.webhook)
            if rule.onChange { out.line(2, "onChange: true") } else { out.field(2, "at", rule.at) }
            if !rule.weekdays.isEmpty { out.field(2, "weekdays", rule.weekdays) }
        }
        return out.text
    }

    private static func write(
        _ schedule: ScheduleDefinition, to out: inout YAMLLines, now: UnixMillis, name: (String) -> String
    ) {
        out.item(1, "id", schedule.id)
        out.field(2, "name", schedule.name)
        out.field(2, "zone", schedule.zone)
        if !schedule.team.isEmpty { out.field(2, "team", schedule.team) }
        if !schedule.description.isEmpty { out.field(2, "description", schedule.description) }
        if schedule.readersMayVolunteer { out.line(2, "readersMayVolunteer: true") }
        if schedule.selfServiceOff { out.line(2, "selfService: false") }
        let rotations = schedule.currentRotations(now: now)
        let levels = rotations.map(\.level).reduce(into: [Int]()) { if !$0.contains($1) { $0.append($1) } }
        out.line(2, "layers:" + (levels.isEmpty ? " []" : ""))
        for level in levels {
            out.line(3, "- level: \(level)")
            out.line(4, "rotations:")
            for entry in rotations where entry.level == level { write(entry.rotation, to: &out, name: name) }
        }
        let overrides = schedule.standingOverrides(now: now)
        out.line(2, "overrides:" + (overrides.isEmpty ? " []" : ""))
        for override in overrides {
            out.item(3, "id", override.id)
            switch override.kind {
            case .replace(let replaced, let with):
                out.field(4, "replace", name(replaced))
                out.field(4, "with", name(with))
            case .add(let person): out.field(4, "add", name(person))
            case .remove(let person): out.field(4, "remove", name(person))
            }
            out.field(4, "from", TimeText.iso8601(override.start))
            out.field(4, "to", TimeText.iso8601(override.end))
            if !override.reason.isEmpty { out.field(4, "reason", override.reason) }
        }
    }

    private static func write(_ rotation: Rotation, to out: inout YAMLLines, name: (String) -> String) {
        out.item(5, "id", rotation.id)
        out.line(6, "people:" + (rotation.slots.isEmpty ? " []" : ""))
        for slot in rotation.slots {
            out.line(7, "- " + (slot.count == 1 ? YAMLLines.scalar(name(slot[0])) : YAMLLines.flow(slot.map(name))))
        }
        out.field(6, "every", rotation.cadence.text)
        out.field(6, "handoff", rotation.handoff.description)
        if !rotation.restrictions.isEmpty {
            out.line(6, "restrictions: " + YAMLLines.flow(rotation.restrictions.map(\.text)))
        }
        if rotation.advance != .activeTurns { out.field(6, "advance", rotation.advance.rawValue) }
        if rotation.onTimeOff != .flag { out.field(6, "onTimeOff", rotation.onTimeOff.rawValue) }
        if let end = rotation.end { out.field(6, "end", TimeText.iso8601(end)) }
        // What a copy needs to hand off to the same people: where this version starts, and the
        // turn it continues from.
        if let since = rotation.since { out.field(6, "since", TimeText.iso8601(since)) }
        if rotation.slotOffset != 0 { out.line(6, "offset: \(rotation.slotOffset)") }
    }
}

/// YAML written line by line: two spaces an indent, text quoted unless plainly safe.
struct YAMLLines {
    private(set) var text = ""

    mutating func line(_ indent: Int, _ content: String) {
        text += String(repeating: "  ", count: indent) + content + "\n"
    }

    mutating func field(_ indent: Int, _ key: String, _ value: String) { line(indent, key + ": " + Self.scalar(value)) }

    /// The first field of a list item: "- key: value" one level in.
    mutating func item(_ indent: Int, _ key: String, _ value: String) {
        line(indent, "- " + key + ": " + Self.scalar(value))
    }

    static func flow(_ values: [String]) -> String { "[" + values.map(scalar).joined(separator: ", ") + "]" }

    private static let special: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"]

    /// Plain when it starts with a letter and holds only letters, digits, spaces and `_-./+@()'`
    /// without reading as another type in any YAML reader; else double-quoted.
    static func scalar(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, CharacterSet.letters.contains(first), value.last != " ",
            !special.contains(value.lowercased()),
            value.unicodeScalars.allSatisfy({
                CharacterSet.alphanumerics.contains($0) || " _-./+@()'".unicodeScalars.contains($0)
            })
        else { return quoted(value) }
        return value
    }

    /// A double-quoted scalar: `"` and `\` escaped, and every character YAML does not take as
    /// printable, or reads as a line break to fold (U+0085, U+2028, U+2029), written as an escape.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF:
                out.unicodeScalars.append(scalar)
            default: out += String(format: "\\u%04X", scalar.value)
            }
        }
        return out + "\""
    }
}
