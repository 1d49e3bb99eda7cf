import Foundation
import RosterDomain
import RosterServerCore
import RosterStore

/// What a chat post says for each event (docs/CHAT.md): read back from the event's own JSON,
/// so a chat webhook says exactly what a JSON webhook receives, in words: the server's
/// `--chat-language`, from the same catalogs as the web app.
enum ChatPosts {
    /// The post for an event; nil when its payload cannot be read (it is then not sent as chat).
    static func message(for event: NotificationEvent, words: Words = .english) -> ChatMessage? {
        let decoder = JSONDecoder()
        func data<Body: Codable>(_ type: Body.Type) -> Body? {
            try? decoder.decode(NotificationPayload.Envelope<Body>.self, from: event.payload).data
        }
        let about = event.about
        switch event.type {
        case .onDutyChanged:
            return data(NotificationPayload.OnDutyChanged.self).map { onDuty(OnCall($0), about: about, words: words) }
        case .announcement:
            return data(NotificationPayload.Announcement.self).map { onDuty(OnCall($0), about: about, words: words) }
        case .shiftStarting:
            return data(NotificationPayload.ShiftStarting.self).map { starting in
                let zone = words.clock(starting.schedule.zone ?? "UTC")
                let (person, schedule) = (ChatMessage.Piece.person(starting.person), starting.schedule.name)
                let from = time(starting.shift.startMs, zone, about)
                let to = time(starting.shift.endMs, zone, starting.shift.startMs)
                return ChatMessage([
                    words.line(
                        "Reminder (\(starting.reminder)): \(person) is on call for \(schedule) from \(from) to \(to)")
                ])
            }
        case .shiftsChanged:
            return data(NotificationPayload.ShiftsChanged.self).map { shiftsChanged($0, words: words) }
        case .coverageGap:
            return data(NotificationPayload.CoverageGap.self).map { gap in
                let zone = words.clock(gap.schedule.zone ?? "UTC")
                let (schedule, from) = (gap.schedule.name, time(gap.startMs, zone, about))
                guard let end = gap.endMs else {
                    return ChatMessage([words.line("Nobody is on call for \(schedule) from \(from) on")])
                }
                let to = time(end, zone, gap.startMs)
                return ChatMessage([words.line("Nobody is on call for \(schedule) from \(from) to \(to)")])
            }
        case .coverageConflict:
            return data(NotificationPayload.CoverageConflict.self).map { conflict in
                let zone = words.clock(conflict.schedule.zone ?? "UTC")
                let (person, schedule) = (ChatMessage.Piece.person(conflict.person), conflict.schedule.name)
                // The day always: a conflict is planned ahead, and "from 09:00" names no day.
                let from = ChatMessage.Piece.time(conflict.startMs, zone.label(conflict.startMs))
                let to = time(conflict.endMs, zone, conflict.startMs)
                var lines = [words.line("\(person) has time off but is on call for \(schedule) from \(from) to \(to)")]
                if conflict.proposals.isEmpty {
                    lines.append(words.line("Nobody on the schedule is free then."))
                } else {
                    let free = people(conflict.proposals.prefix(3).map(\.person), none: "", words: words)
                    lines.append(words.line("Free then, fewest hours first: \(free)"))
                    lines.append([.text(conflict.take)])
                }
                return ChatMessage(lines)
            }
        case .requestOpened, .requestTaken, .requestCancelled, .requestExpired:
            return data(NotificationPayload.CoverRequestStep.self).map {
                request(event.type, $0, about: about, words: words)
            }
        case .escalationChanged:
            return data(NotificationPayload.EscalationChanged.self).map { escalation($0, about: about, words: words) }
        case .ping:
            return data(NotificationPayload.Ping.self).map { ping in
                ChatMessage([
                    words.line("Roster test post for webhook \(ping.webhook): this channel will get Roster's posts.")
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
        func reason(_ words: Words) -> String? {
            switch kind {
            case "override": return by.map { words("override by \($0)") } ?? words("override")
            case "swap": return words("swap")
            case "cover": return words("cover request taken")
            case "take": return words("duty taken")
            default: break
            }
            switch cause {
            case "handoff": return words("handoff")
            case "plan-changed": return by.map { words("changed by \($0)") } ?? words("plan changed")
            default: return nil
            }
        }
    }

    /// "Frances Allen is on call for Demo fast rotation until 14:23 UTC; next: John Backus (handoff)"
    static func onDuty(_ onCall: OnCall, about: UnixMillis, words: Words) -> ChatMessage {
        let zone = words.clock(onCall.zone)
        let current = people(onCall.current, none: words("Nobody"), words: words), schedule = onCall.schedule
        var line: [ChatMessage.Piece]
        if let until = onCall.untilMs {
            let (time, next) = (time(until, zone, about), people(onCall.next, none: words("nobody"), words: words))
            line = words.line(
                onCall.current.count, "\(current) is on call for \(schedule) until \(time); next: \(next)",
                "\(current) are on call for \(schedule) until \(time); next: \(next)")
        } else {
            line = words.line(
                onCall.current.count, "\(current) is on call for \(schedule)", "\(current) are on call for \(schedule)")
        }
        if let reason = onCall.reason(words) { line += [.text(" ")] + words.line("(\(reason))") }
        return ChatMessage([line])
    }

    private static func shiftsChanged(_ change: NotificationPayload.ShiftsChanged, words: Words) -> ChatMessage {
        let person = ChatMessage.Piece.person(change.person)
        var lines = [words.line("\(person)'s shifts changed (by \(change.by)):")]
        let entries =
            change.gained.map { (0, $0) } + change.lost.map { (1, $0) } + change.moved.map { (2, $0) }
        for (kind, entry) in entries.prefix(10) {
            let zone = words.clock(entry.zone ?? "UTC")
            let schedule = entry.scheduleName
            let from = ChatMessage.Piece.time(entry.shift.startMs, zone.label(entry.shift.startMs))
            let to = time(entry.shift.endMs, zone, entry.shift.startMs)
            var line =
                switch kind {
                case 0: words.line("• gained \(schedule): \(from) to \(to)")
                case 1: words.line("• lost \(schedule): \(from) to \(to)")
                default: words.line("• moved \(schedule): \(from) to \(to)")
                }
            if let before = entry.previously {
                let was = ChatMessage.Piece.time(before.startMs, zone.label(before.startMs))
                line += [.text(" ")] + words.line("(was \(was))")
            }
            lines.append(line)
        }
        if entries.count > 10 { lines.append(words.line("… and \(entries.count - 10) more")) }
        return ChatMessage(lines)
    }

    private static func request(
        _ type: NotificationType, _ step: NotificationPayload.CoverRequestStep, about: UnixMillis, words: Words
    ) -> ChatMessage {
        let zone = words.clock(step.schedule.zone ?? "UTC")
        let from = ChatMessage.Piece.time(step.stretch.startMs, zone.label(step.stretch.startMs))
        let to = time(step.stretch.endMs, zone, step.stretch.startMs)
        let (requester, schedule) = (ChatMessage.Piece.person(step.requester), step.schedule.name)
        var line: [ChatMessage.Piece]
        switch type {
        case .requestTaken:
            let taker = step.taker.map { [ChatMessage.Piece.person($0)] } ?? [.text(words("Someone"))]
            line = words.line("\(taker) took \(requester)'s cover request on \(schedule): \(from) to \(to)")
        case .requestCancelled:
            line = words.line("\(requester) cancelled their cover request on \(schedule): \(from) to \(to)")
        case .requestExpired:
            line = words.line(
                "\(requester)'s cover request on \(schedule) expired with nobody taking it: \(from) to \(to)")
        default:
            if step.reopened, let taker = step.taker {
                let backedOut = ChatMessage.Piece.person(taker)
                line = words.line(
                    "\(backedOut) backed out: \(requester)'s cover request on \(schedule) is open again: \(from) to \(to)"
                )
            } else if step.reopened {
                line = words.line("\(requester)'s cover request on \(schedule) is open again: \(from) to \(to)")
            } else {
                line = words.line("\(requester) asks for cover on \(schedule): \(from) to \(to)")
            }
        }
        if !step.note.isEmpty { line += [.text(" ")] + words.line("(“\(step.note)”)") }
        return ChatMessage([line])
    }

    /// "Ada Lovelace", "Ada Lovelace and Alan Turing", "A, B and C"; `none` when nobody.
    /// A line per step whose people changed: whom it pages now, until when.
    private static func escalation(
        _ change: NotificationPayload.EscalationChanged, about: UnixMillis, words: Words
    ) -> ChatMessage {
        let policy = change.policy.name
        if change.removed == true { return ChatMessage([words.line("Escalation policy \(policy) was removed")]) }
        let zone = words.clock(change.zone ?? "UTC")
        var lines: [[ChatMessage.Piece]] = []
        for level in change.changedLevels {
            guard let step = change.steps.first(where: { $0.level == level }) else { continue }
            let paged = people(step.people, none: words("nobody"), words: words)
            if let until = step.untilMs {
                lines.append(words.line("\(policy), step \(level) pages \(paged) until \(time(until, zone, about))"))
            } else {
                lines.append(words.line("\(policy), step \(level) pages \(paged)"))
            }
        }
        if lines.isEmpty {
            lines.append(words.line("Escalation policy \(policy) changed; its steps page the same people"))
        }
        return ChatMessage(lines)
    }

    static func people(_ list: [NotificationPayload.Person], none: String, words: Words) -> [ChatMessage.Piece] {
        guard !list.isEmpty else { return [.text(none)] }
        var pieces: [ChatMessage.Piece] = []
        let and = words(" and ")
        for (index, person) in list.enumerated() {
            if index > 0 { pieces.append(.text(index == list.count - 1 ? and : ", ")) }
            pieces.append(.person(person))
        }
        return pieces
    }

    /// An instant in the schedule's zone: the time alone within a day of `reference`, else with the date.
    static func time(_ instant: UnixMillis, _ zone: ZoneLabel, _ reference: UnixMillis) -> ChatMessage.Piece {
        .time(instant, zone.near(instant, to: reference))
    }
}
