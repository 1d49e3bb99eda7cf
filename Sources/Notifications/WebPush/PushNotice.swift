import Foundation
import RosterDomain
import RosterIdentity
import RosterServerCore
import RosterStore
import RosterTLS

/// What one person's phone is told of one event (docs/PUSH.md, "What you are told"): read back
/// from the event's own JSON, as a chat post is, and shaped for a notification: a title, a line,
/// the page a tap opens, and how a push service should treat it.
struct PushNotice: Sendable, Equatable {
    enum Urgency: String, Sendable {
        case high, normal
    }

    var kind: PushKind
    var title: String
    var body: String
    /// A path of the web app (the service worker opens nothing else).
    var url: String
    /// A newer notice of the same topic replaces an older one, at the push service (RFC 8030
    /// §5.4: at most 32 base64url characters) and on the device.
    var topic: String
    var urgency: Urgency
    /// After this the notice is stale: a push service holds it no longer (`TTL`), and a notice
    /// held through quiet hours past it is not sent.
    var staleAt: UnixMillis

    /// The longest a push service is asked to keep a notice (RFC 8030 leaves the cap to it).
    static let longestTTL: Int64 = 4 * 7 * 86_400

    /// `TTL` in seconds at `now`: until the notice goes stale.
    func ttl(now: UnixMillis) -> Int64 { min(Self.longestTTL, max(0, (staleAt - now) / 1000)) }

    /// The message the device decrypts (docs/PUSH.md, "The message"); the event's id lets the
    /// app drop a second copy (deliveries are at least once).
    func payload(eventID: String, type: NotificationType, about: UnixMillis) -> [UInt8] {
        struct Message: Encodable {
            var id, type, kind, title, body, url, topic, urgency: String
            var at: UnixMillis
        }
        let message = Message(
            id: eventID, type: type.rawValue, kind: kind.rawValue, title: title, body: body, url: url, topic: topic,
            urgency: urgency.rawValue, at: about)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8]((try? encoder.encode(message)) ?? Data())
    }

    /// The notice for `personID`, or nil when the event tells them nothing they asked for (they
    /// leave duty, a request is not theirs nor asked of them, a kind they turned off).
    /// `payloads` keeps the event's JSON read once for all of its subscriptions.
    static func make(
        for event: NotificationEvent, personID: String, kinds: Set<PushKind>, payloads: PushPayloads? = nil
    ) -> PushNotice? {
        let notice: PushNotice?
        switch payloads?.payload(of: event) ?? PushPayload(event) {
        case .shiftStarting(let starting):
            notice = { () -> PushNotice? in
                guard starting.person.id == personID else { return nil }
                let zone = ZoneLabel(zone: starting.schedule.zone ?? "UTC")
                let from = zone.near(starting.shift.startMs, to: event.due)
                let to = zone.near(starting.shift.endMs, to: starting.shift.startMs)
                return PushNotice(
                    kind: .onDuty, title: "On call from \(from)",
                    body: "You are on call for \(starting.schedule.name) from \(from) to \(to).",
                    url: schedulePath(starting.schedule.name), topic: topic("duty", starting.schedule.id),
                    urgency: .high, staleAt: starting.shift.startMs)
            }()
        case .onDutyChanged(let change, let arriving):
            notice = { () -> PushNotice? in
                // Only the one who comes on duty is told; leaving duty is no alarm.
                guard arriving.contains(personID) else { return nil }
                let zone = ZoneLabel(zone: change.zone ?? "UTC")
                let until = change.untilMs.map { " until \(zone.near($0, to: event.about))" } ?? ""
                let after = change.untilMs ?? (event.about + 3_600_000)
                return PushNotice(
                    kind: .onDuty, title: "You are on call now",
                    body: "You are on call for \(change.schedule.name)\(until).",
                    url: schedulePath(change.schedule.name), topic: topic("duty", change.schedule.id),
                    urgency: .high, staleAt: after)
            }()
        case .request(let step) where event.type == .requestOpened:
            notice = { () -> PushNotice? in
                guard step.addressedTo.contains(where: { $0.id == personID }), step.requester.id != personID else {
                    return nil
                }
                let zone = ZoneLabel(zone: step.schedule.zone ?? "UTC")
                let from = zone.label(step.stretch.startMs)
                let to = zone.near(step.stretch.endMs, to: step.stretch.startMs)
                return PushNotice(
                    kind: .coverAsked, title: "\(step.requester.name) asks you to cover",
                    body: "\(step.schedule.name), \(from) to \(to)" + (step.note.isEmpty ? "" : ": \(step.note)"),
                    url: "/me", topic: topic("ask", step.request), urgency: .normal, staleAt: step.stretch.startMs)
            }()
        case .request(let step):
            notice = { () -> PushNotice? in
                guard step.requester.id == personID else { return nil }
                let zone = ZoneLabel(zone: step.schedule.zone ?? "UTC")
                let stretch = "\(step.schedule.name), \(zone.label(step.stretch.startMs))"
                let taken = event.type == .requestTaken
                return PushNotice(
                    kind: .myRequests,
                    title: taken ? "\(step.taker?.name ?? "Someone") covers for you" : "Nobody took your request",
                    body: taken ? "\(stretch) is taken." : "\(stretch) began with nobody taking it: you are on call.",
                    url: "/me", topic: topic("mine", step.request), urgency: .normal,
                    staleAt: max(step.stretch.endMs, event.about + 3_600_000))
            }()
        case .conflict(let conflict):
            notice = { () -> PushNotice? in
                guard conflict.person.id == personID else { return nil }
                let zone = ZoneLabel(zone: conflict.schedule.zone ?? "UTC")
                return PushNotice(
                    kind: .conflicts, title: "On call during your time off",
                    body: "\(conflict.schedule.name), \(zone.label(conflict.startMs)) to "
                        + "\(zone.near(conflict.endMs, to: conflict.startMs)): ask for cover.",
                    url: "/me", topic: topic("conflict", conflict.conflict), urgency: .normal,
                    staleAt: conflict.startMs)
            }()
        case .shiftsChanged(let changed):
            notice = { () -> PushNotice? in
                guard changed.person.id == personID, !(changed.gained.isEmpty && changed.lost.isEmpty) else {
                    return nil
                }
                func list(_ shifts: [NotificationPayload.ShiftChange]) -> String {
                    shifts.prefix(3).map { shift in
                        let zone = ZoneLabel(zone: shift.zone ?? "UTC")
                        return "\(shift.scheduleName) \(zone.label(shift.shift.startMs))"
                    }.joined(separator: ", ") + (shifts.count > 3 ? " and \(shifts.count - 3) more" : "")
                }
                var lines: [String] = []
                if !changed.gained.isEmpty { lines.append("Now yours: \(list(changed.gained)).") }
                if !changed.lost.isEmpty { lines.append("No longer yours: \(list(changed.lost)).") }
                let first = (changed.gained + changed.lost).map(\.shift.startMs).min() ?? event.about
                return PushNotice(
                    kind: .shiftChanges, title: "Your shifts changed", body: lines.joined(separator: " "),
                    url: "/me", topic: topic("shifts", personID), urgency: .normal,
                    staleAt: max(first, event.about + 86_400_000))
            }()
        case .none:
            notice = nil
        }
        guard let notice, kinds.contains(notice.kind) else { return nil }
        return notice
    }

    static func schedulePath(_ name: String) -> String {
        "/schedules/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name)
    }

    /// A topic from a kind and an id: the kind and 16 base64url characters of the id's digest,
    /// so it fits RFC 8030's 32 characters whatever the id is.
    static func topic(_ kind: String, _ id: String) -> String {
        kind + "-" + String(Base64URL.encode(Crypto.sha256(Array(id.utf8))).prefix(16))
    }
}
