import Foundation
import RosterDomain
import RosterServerCore
import RosterStore

/// What a chat post says for each event (docs/CHAT.md): read back from the event's own JSON,
/// so a chat webhook says exactly what a JSON webhook receives, in words.
enum ChatPosts {
    /// The post for an event; nil when its payload cannot be read (it is then not sent as chat).
    static func message(for event: NotificationEvent) -> ChatMessage? {
        let decoder = JSONDecoder()
        func data<Body: Codable>(_ type: Body.Type) -> Body? {
            try? decoder.decode(NotificationPayload.Envelope<Body>.self, from: event.payload).data
        }
        let about = event.about
        switch event.type {
        case .onDutyChanged:
            return data(NotificationPayload.OnDutyChanged.self).map { onDuty(OnCall($0), about: about) }
        case .announcement:
            return data(NotificationPayload.Announcement.self).map { onDuty(OnCall($0), about: about) }
        case .shiftStarting:
            return data(NotificationPayload.ShiftStarting.self).map { starting in
                let zone = ZoneLabel(zone: starting.schedule.zone ?? "UTC")
                return ChatMessage([
                    [
                        .text("Reminder ("), .text(starting.reminder), .text("): "), .person(starting.person),
                        .text(" is on call for \(starting.schedule.name) from "),
                        time(starting.shift.startMs, zone, about),
                        .text(" to "), time(starting.shift.endMs, zone, starting.shift.startMs),
                    ]
                ])
            }
        case .shiftsChanged:
            return data(NotificationPayload.ShiftsChanged.self).map(shiftsChanged)
        case .coverageGap:
            return data(NotificationPayload.CoverageGap.self).map { gap in
                let zone = ZoneLabel(zone: gap.schedule.zone ?? "UTC")
                var line: [ChatMessage.Piece] = [
                    .text("Nobody is on call for \(gap.schedule.name) from "), time(gap.startMs, zone, about),
                ]
                if let end = gap.endMs {
                    line += [.text(" to "), time(end, zone, gap.startMs)]
                } else {
                    line.append(.text(" on"))
                }
                return ChatMessage([line])
            }
        case .coverageConflict:
            return data(NotificationPayload.CoverageConflict.self).map { conflict in
                let zone = ZoneLabel(zone: conflict.schedule.zone ?? "UTC")
                var lines: [[ChatMessage.Piece]] = [
                    [
                        .person(conflict.person),
                        .text(" has time off but is on call for \(conflict.schedule.name) from "),
                        // The day always: a conflict is planned ahead, and "from 09:00" names no day.
                        .time(conflict.startMs, zone.label(conflict.startMs)), .text(" to "),
                        time(conflict.endMs, zone, conflict.startMs),
                    ]
                ]
                if conflict.proposals.isEmpty {
                    lines.append([.text("Nobody on the schedule is free then.")])
                } else {
                    lines.append(
                        [.text("Free then, fewest hours first: ")]
                            + conflict.proposals.prefix(3).enumerated().flatMap { index, proposal in
                                (index > 0 ? [ChatMessage.Piece.text(", ")] : []) + [.person(proposal.person)]
                            })
                    lines.append([.text(conflict.take)])
                }
                return ChatMessage(lines)
            }
        case .requestOpened, .requestTaken, .requestCancelled, .requestExpired:
            return data(NotificationPayload.CoverRequestStep.self).map { request(event.type, $0, about: about) }
        case .ping:
            return data(NotificationPayload.Ping.self).map { ping in
                ChatMessage([
                    [.text("Roster test post for webhook \(ping.webhook): this channel will get Roster's posts.")]
                ])
            }
        }
    }

    /// Who is on call for a schedule, from an on-duty change or an announcement.
    struct OnCall {
        var schedule: String
        var zone: String
        var current: [NotificationPayload.Person]
        var untilMs: Int64?
        var next: [NotificationPayload.Person]
        var cause: String?
        var kind: String?
        var by: String?

        init(
            schedule: String, zone: String, current: [NotificationPayload.Person], untilMs: Int64?,
            next: [NotificationPayload.Person],
            cause: String? = nil, kind: String? = nil, by: String? = nil
        ) {
            (self.schedule, self.zone, self.current, self.untilMs, self.next) = (schedule, zone, current, untilMs, next)
            (self.cause, self.kind, self.by) = (cause, kind, by)
        }

        init(_ change: NotificationPayload.OnDutyChanged) {
            self.init(
                schedule: change.schedule.name, zone: change.zone ?? change.schedule.zone ?? "UTC",
                current: change.current,
                untilMs: change.untilMs, next: change.next, cause: change.cause, kind: change.kind, by: change.by)
        }

        init(_ post: NotificationPayload.Announcement) {
            self.init(
                schedule: post.schedule.name, zone: post.zone, current: post.current, untilMs: post.untilMs,
                next: post.next,
                cause: post.cause, kind: post.kind, by: post.by)
        }

        /// Why, in words: "handoff", "override by admin", "cover request taken"; nil: not said.
        var reason: String? {
            switch kind {
            case "override": return by.map { "override by \($0)" } ?? "override"
            case "swap": return "swap"
            case "cover": return "cover request taken"
            case "take": return "duty taken"
            default: break
            }
            switch cause {
            case "handoff": return "handoff"
            case "plan-changed": return by.map { "changed by \($0)" } ?? "plan changed"
            default: return nil
            }
        }
    }

    /// "Frances Allen is on call for Demo fast rotation until 14:23 UTC; next: John Backus (handoff)"
    static func onDuty(_ onCall: OnCall, about: UnixMillis) -> ChatMessage {
        let zone = ZoneLabel(zone: onCall.zone)
        var line = people(onCall.current, none: "Nobody")
        line.append(.text(onCall.current.count > 1 ? " are on call for " : " is on call for "))
        line.append(.text(onCall.schedule))
        if let until = onCall.untilMs {
            line += [.text(" until "), time(until, zone, about), .text("; next: ")]
            line += people(onCall.next, none: "nobody")
        }
        if let reason = onCall.reason { line.append(.text(" (\(reason))")) }
        return ChatMessage([line])
    }

    private static func shiftsChanged(_ change: NotificationPayload.ShiftsChanged) -> ChatMessage {
        var lines: [[ChatMessage.Piece]] = [[.person(change.person), .text("'s shifts changed (by \(change.by)):")]]
        let entries =
            change.gained.map { ("gained", $0) } + change.lost.map { ("lost", $0) } + change.moved.map { ("moved", $0) }
        for (word, entry) in entries.prefix(10) {
            let zone = ZoneLabel(zone: entry.zone ?? "UTC")
            var line: [ChatMessage.Piece] = [
                .text("• \(word) \(entry.scheduleName): "), .time(entry.shift.startMs, zone.label(entry.shift.startMs)),
                .text(" to "), time(entry.shift.endMs, zone, entry.shift.startMs),
            ]
            if let before = entry.previously {
                line += [.text(" (was "), .time(before.startMs, zone.label(before.startMs)), .text(")")]
            }
            lines.append(line)
        }
        if entries.count > 10 { lines.append([.text("… and \(entries.count - 10) more")]) }
        return ChatMessage(lines)
    }

    private static func request(
        _ type: NotificationType, _ step: NotificationPayload.CoverRequestStep, about: UnixMillis
    ) -> ChatMessage {
        let zone = ZoneLabel(zone: step.schedule.zone ?? "UTC")
        let stretch: [ChatMessage.Piece] = [
            .time(step.stretch.startMs, zone.label(step.stretch.startMs)), .text(" to "),
            time(step.stretch.endMs, zone, step.stretch.startMs),
        ]
        var line: [ChatMessage.Piece]
        switch type {
        case .requestTaken:
            line =
                (step.taker.map { [.person($0)] } ?? [.text("Someone")]) + [
                    .text(" took "), .person(step.requester),
                    .text("'s cover request on \(step.schedule.name): "),
                ]
        case .requestCancelled:
            line = [.person(step.requester), .text(" cancelled their cover request on \(step.schedule.name): ")]
        case .requestExpired:
            line = [
                .person(step.requester),
                .text("'s cover request on \(step.schedule.name) expired with nobody taking it: "),
            ]
        default:
            line =
                step.reopened
                ? (step.taker.map { [.person($0), .text(" backed out: ")] } ?? []) + [
                    .person(step.requester),
                    .text("'s cover request on \(step.schedule.name) is open again: "),
                ]
                : [.person(step.requester), .text(" asks for cover on \(step.schedule.name): ")]
        }
        line += stretch
        if !step.note.isEmpty { line.append(.text(" (“\(step.note)”)")) }
        return ChatMessage([line])
    }

    /// "Ada Lovelace", "Ada Lovelace and Alan Turing", "A, B and C"; `none` when nobody.
    static func people(_ list: [NotificationPayload.Person], none: String) -> [ChatMessage.Piece] {
        guard !list.isEmpty else { return [.text(none)] }
        var pieces: [ChatMessage.Piece] = []
        for (index, person) in list.enumerated() {
            if index > 0 { pieces.append(.text(index == list.count - 1 ? " and " : ", ")) }
            pieces.append(.person(person))
        }
        return pieces
    }

    /// An instant in the schedule's zone: the time alone within a day of `reference`, else with the date.
    static func time(_ instant: UnixMillis, _ zone: ZoneLabel, _ reference: UnixMillis) -> ChatMessage.Piece {
        .time(instant, zone.near(instant, to: reference))
    }
}
