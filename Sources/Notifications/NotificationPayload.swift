import Foundation
import RosterDomain
import RosterServerCore
import RosterStore

extension NotificationEvent {
    /// - Parameter planned: a time-driven event written ahead of `due`, which a plan change
    ///   may withdraw; the others are written with the change that caused them.
    init(
        type: NotificationType, tenantID: String, key: String, revision: UInt64, about: UnixMillis, due: UnixMillis,
        planned: Bool, scheduleIDs: [String], people: [String], data: some Codable
    ) {
        let id = Self.id(tenantID: tenantID, key: key)
        self.init(
            id: id, type: type, tenantID: tenantID, revision: revision, about: about, due: due, planned: planned,
            scheduleIDs: scheduleIDs, people: people,
            payload: NotificationPayload.encode(
                id: id, type: type, tenantID: tenantID, revision: revision, about: about, data: data))
    }
}

/// The JSON of an event: an envelope (id, type, tenant, revision, about) around `data`.
enum NotificationPayload {
    struct Envelope<Body: Codable>: Codable {
        var id: String
        var type: String
        var tenant: String
        var revision: UInt64
        var about: String
        var aboutMs: Int64
        var data: Body

        enum CodingKeys: String, CodingKey {
            case id, type, tenant, revision, about, data
            case aboutMs = "about_ms"
        }
    }

    static func encode(
        id: String, type: NotificationType, tenantID: String, revision: UInt64, about: UnixMillis,
        data: some Codable
    ) -> Data {
        let envelope = Envelope(
            id: id, type: type.rawValue, tenant: tenantID, revision: revision,
            about: Timestamp.iso8601(about), aboutMs: about, data: data)
        // Sorted keys: the same event always has the same bytes, and so the same signature input.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try! encoder.encode(envelope)
    }

    struct Person: Codable, Hashable {
        var id: String
        var name: String
        /// The person's chat handles (platform to handle); absent when the directory has none.
        var chat: [String: String]?

        init(id: String, name: String, chat: [String: String]? = nil) {
            (self.id, self.name, self.chat) = (id, name, chat?.isEmpty == true ? nil : chat)
        }

        /// A person as the directory names them; an id no longer in it, as the id.
        init(_ id: String, in state: RosterState) {
            let employee = state.employees[id]
            self.init(id: id, name: employee?.fullName ?? id, chat: employee?.chat)
        }
    }

    struct ScheduleRef: Codable {
        var id: String
        var name: String
        /// Its time zone, where chat posts show times.
        var zone: String?

        init(id: String, name: String, zone: String? = nil) { (self.id, self.name, self.zone) = (id, name, zone) }

        init(_ definition: ScheduleDefinition) {
            self.init(id: definition.id, name: definition.name, zone: definition.zone)
        }
    }

    struct Stretch: Codable, Hashable {
        var start: String
        var end: String
        var startMs: Int64
        var endMs: Int64

        init(start: UnixMillis, end: UnixMillis) {
            self.start = Timestamp.iso8601(start)
            self.end = Timestamp.iso8601(end)
            startMs = start
            endMs = end
        }

        enum CodingKeys: String, CodingKey {
            case start, end
            case startMs = "start_ms"
            case endMs = "end_ms"
        }
    }

    struct OnDutyChanged: Codable {
        var schedule: ScheduleRef
        /// "handoff" (a boundary), "plan-changed" (an admin's or a person's change).
        var cause: String
        var previous: [Person]
        var current: [Person]
        var until: String?
        var untilMs: Int64?
        var next: [Person]
        /// The schedule's time zone: where chat posts show `until`.
        var zone: String?
        /// Why the first person now on duty is: rotation, shift, override, swap, cover, take.
        var kind: String?
        /// A change's: the token label that made it; an override's: its author.
        var by: String?

        enum CodingKeys: String, CodingKey {
            case schedule, cause, previous, current, until, next, zone, kind, by
            case untilMs = "until_ms"
        }
    }

    /// Whom an escalation policy pages at each step from `at`, and which steps changed.
    struct EscalationChanged: Codable {
        struct Ref: Codable, Hashable {
            var id: String
            var name: String
        }
        struct Step: Codable, Hashable {
            /// From 1, as PagerDuty's escalation levels.
            var level: Int
            var people: [Person]
            /// Until when they hold (a schedule of the step changes hands); absent: no change planned.
            var until: String?
            var untilMs: Int64?

            enum CodingKeys: String, CodingKey {
                case level, people, until
                case untilMs = "until_ms"
            }
        }
        var policy: Ref
        var services: [Ref]
        /// "handoff", "plan-changed" (an override, a schedule edit) or "policy-changed".
        var cause: String
        var steps: [Step]
        /// The levels whose people differ from just before.
        var changedLevels: [Int]
        /// The policy was deleted: `steps` is empty.
        var removed: Bool?
        /// A change's: the token label that made it.
        var by: String?
        /// The zone of the first schedule the policy reaches, where chat posts show times.
        var zone: String?

        enum CodingKeys: String, CodingKey {
            case policy, services, cause, steps, removed, by, zone
            case changedLevels = "changed_levels"
        }
    }

    /// An announcement rule's post: who is on duty on a schedule now, until when, who is next.
    struct Announcement: Codable {
        var schedule: ScheduleRef
        var rule: String
        /// "change" or "at".
        var trigger: String
        var current: [Person]
        var until: String?
        var untilMs: Int64?
        var next: [Person]
        var zone: String
        /// With trigger "change": what changed it, as in `on-duty.changed`.
        var cause: String?
        var kind: String?
        var by: String?

        enum CodingKeys: String, CodingKey {
            case schedule, rule, trigger, current, until, next, zone, cause, kind, by
            case untilMs = "until_ms"
        }
    }

    struct ShiftStarting: Codable {
        var schedule: ScheduleRef
        var person: Person
        var shift: Stretch
        var reminder: String
    }

    struct ShiftChange: Codable, Hashable {
        var schedule: String
        var scheduleName: String
        var shift: Stretch
        var previously: Stretch?
        /// The schedule's time zone.
        var zone: String?

        enum CodingKeys: String, CodingKey {
            case schedule, shift, previously, zone
            case scheduleName = "schedule_name"
        }
    }

    struct ShiftsChanged: Codable {
        var person: Person
        var by: String
        var gained: [ShiftChange]
        var lost: [ShiftChange]
        var moved: [ShiftChange]
    }

    struct CoverageGap: Codable {
        var schedule: ScheduleRef
        var start: String
        var startMs: Int64
        /// nil: nobody is on duty from `start` on, as far as the plan goes.
        var end: String?
        var endMs: Int64?

        enum CodingKeys: String, CodingKey {
            case schedule, start, end
            case startMs = "start_ms"
            case endMs = "end_ms"
        }
    }

    /// A cover request's step: `taker` is who took it (taken), who had it (cancelled after it
    /// was taken), or who backed out (opened again, `reopened`).
    struct CoverRequestStep: Codable {
        var schedule: ScheduleRef
        var request: String
        var state: String
        var requester: Person
        var taker: Person?
        var stretch: Stretch
        var addressedTo: [Person]
        var note: String
        var reopened: Bool

        enum CodingKeys: String, CodingKey {
            case schedule, request, state, requester, taker, stretch, note, reopened
            case addressedTo = "addressed_to"
        }
    }

    struct Ping: Codable {
        var webhook: String
    }
}

/// RFC 3339 UTC instants with milliseconds only when there are any.
enum Timestamp {
    static func iso8601(_ millis: UnixMillis) -> String {
        // Whole seconds through Foundation, milliseconds by integer arithmetic: a Double of the
        // instant can round .392 down to .391.
        let fraction = ((millis % 1000) + 1000) % 1000, seconds = (millis - fraction) / 1000
        let text = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        guard fraction != 0 else { return text }
        let digits = String(fraction)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
