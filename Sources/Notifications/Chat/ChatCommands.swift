import Foundation
import NIOConcurrencyHelpers
import RosterDomain
import RosterServerCore
import RosterStore
import RosterTLS

/// "/oncall" in a chat channel (docs/CHAT.md): Slack's and Mattermost's slash commands.
///
/// A request is answered only when it proves it comes from the platform: Slack's `v0=` signature
/// (HMAC-SHA256 under the signing secret over `v0:TIMESTAMP:BODY`, the timestamp within five
/// minutes, each signature accepted once), Mattermost's command token. Both compared in
/// constant time.
package enum ChatCommands {
    static let platforms = ["mattermost", "slack"]
    /// How far a Slack timestamp may be from the server's clock, and how long a signature is
    /// remembered to refuse its replay.
    static let tolerance: UnixMillis = 300_000
    /// At most this many signatures remembered per node; past it (only a flood signed with the
    /// secret gets here) a request is refused until some age out.
    static let maxRemembered = 10_000
    /// At most this many schedules in one answer.
    static let maxSchedules = 50

    /// What is wrong with a secret as `admin chat` gives it ("" turns the command off).
    static func secretProblem(_ secret: String) -> String? {
        guard !secret.isEmpty else { return nil }
        guard secret.utf8.count <= 200, !secret.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
        else {
            return "the secret must be one line of at most 200 bytes without spaces"
        }
        return nil
    }

    /// The signatures seen in the last five minutes, on this node.
    final class Replays: Sendable {
        private let seen = NIOLockedValueBox<[String: UnixMillis]>([:])

        /// Remembers `signature` at `now`; false when it was seen already, or too many are remembered.
        func admit(_ signature: String, now: UnixMillis) -> Bool {
            seen.withLockedValue { seen in
                if seen.count >= ChatCommands.maxRemembered {
                    seen = seen.filter { now - $0.value <= ChatCommands.tolerance }
                }
                guard seen.count < ChatCommands.maxRemembered, seen[signature] == nil else { return false }
                seen[signature] = now
                return true
            }
        }
    }

    /// Slack's check: whether `signature` is `v0=` the HMAC of `v0:TIMESTAMP:BODY` under `secret`.
    static func slackSignatureMatches(secret: String, timestamp: String, body: [UInt8], signature: String) -> Bool {
        let mac = Crypto.hmacSHA256(key: Array(secret.utf8), message: Array("v0:\(timestamp):".utf8) + body)
        return Crypto.constantTimeEqual(Array(signature.utf8), Array("v0=\(Crypto.hex(mac))".utf8))
    }

    /// Slack's timestamp: Unix seconds, digits only.
    static func seconds(_ text: String) -> Int64? {
        guard (1...12).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int64(text)
    }
}

extension Notifier {
    package func chatCommand(_ request: ChatCommandRequest, tenant: TenantRuntime) async -> ChatCommandReply {
        let refused = ChatCommandReply(
            status: 401, problem: "the request is not from a chat platform set up for this tenant")
        guard let platform = ChatPlatform(rawValue: request.platform),
            ChatCommands.platforms.contains(request.platform),
            let sealed = try? await store.chatCommandSecret(tenantID: tenant.id, platform: request.platform),
            let secret = sealer.open(sealed)
        else { return refused }
        let now = clock.now()
        switch platform {
        case .slack:
            guard let timestamp = request.slackTimestamp, let signature = request.slackSignature,
                let seconds = ChatCommands.seconds(timestamp)
            else { return refused }
            guard abs(now - seconds * 1000) <= ChatCommands.tolerance else {
                return ChatCommandReply(
                    status: 401, problem: "the request's timestamp is more than five minutes from the server's clock")
            }
            guard
                ChatCommands.slackSignatureMatches(
                    secret: secret, timestamp: timestamp, body: request.body, signature: signature)
            else {
                return refused
            }
            guard chatReplays.admit(signature, now: now) else {
                return ChatCommandReply(status: 401, problem: "this request was answered already (a replay)")
            }
        default:
            guard let token = request.fields["token"], Crypto.constantTimeEqual(Array(token.utf8), Array(secret.utf8))
            else { return refused }
        }
        let caller = platform == .slack ? request.fields["user_id"] ?? "" : request.fields["user_name"] ?? ""
        let command = ChatCommand(text: request.fields["text"] ?? "")
        let view = tenant.view, words = chatWords
        let answer: @Sendable () -> ChatMessage = {
            command.answer(state: view.state, platform: platform, caller: caller, now: now, words: words)
        }
        guard let message = work == nil ? answer() : await work!.run(tenant.id, answer) else {
            return ChatCommandReply(status: 429, problem: "the tenant has too much work waiting; try again shortly")
        }
        let reply = ChatMessage.json([
            "response_type": command.isPublic ? "in_channel" : "ephemeral", "text": message.text(for: platform),
        ])
        return ChatCommandReply(status: 200, json: Array(reply))
    }
}

/// What "/oncall …" asks: every schedule, one, who is next on one, or the caller's own duty.
struct ChatCommand: Sendable {
    enum Question: Sendable, Equatable {
        case all
        case schedule(String)
        case next(String)
        case me
        case help
    }

    var question: Question
    /// Answered in the channel for everyone (`--public`), not only to the caller.
    var isPublic: Bool

    init(text: String) {
        var tokens = text.split(whereSeparator: \.isWhitespace).map(String.init)
        isPublic = tokens.contains("--public")
        tokens.removeAll { $0 == "--public" }
        let rest = tokens.dropFirst().joined(separator: " ")
        switch tokens.first?.lowercased() {
        case nil: question = .all
        case "help": question = .help
        case "me" where tokens.count == 1: question = .me
        case "next" where !rest.isEmpty: question = .next(rest)
        default: question = .schedule(tokens.joined(separator: " "))
        }
    }

    func answer(
        state: RosterState, platform: ChatPlatform, caller: String, now: UnixMillis, words: Words = .english
    ) -> ChatMessage {
        func onCall(_ schedule: ScheduleDefinition) -> ChatMessage? {
            guard let lookup = state.onDuty(of: schedule.id, at: now) else { return nil }
            let people = { (shifts: [Shift]) in shifts.map { NotificationPayload.Person($0.employeeID, in: state) } }
            return ChatPosts.onDuty(
                .init(
                    schedule: schedule.name, zone: schedule.zone, current: people(lookup.current),
                    untilMs: lookup.until, next: people(lookup.next)), about: now, words: words)
        }
        func unknown(_ name: String) -> ChatMessage {
            let names = state.sortedSchedules.prefix(ChatCommands.maxSchedules).map(\.name).joined(separator: ", ")
            return ChatMessage([words.line("No schedule “\(name)”. Schedules: \(names)")])
        }
        switch question {
        case .help:
            return ChatMessage([
                words.line(
                    "/oncall: who is on call on every schedule; /oncall SCHEDULE; /oncall next SCHEDULE; /oncall me. Add --public to answer in the channel."
                )
            ])
        case .all:
            let schedules = state.sortedSchedules.filter {
                $0.id != ScheduleDefinition.defaultID || $0.hasRules || state.shifts.holdsShifts(schedule: $0.id)
            }
            guard !schedules.isEmpty else { return ChatMessage([words.line("There are no schedules yet.")]) }
            var lines = schedules.prefix(ChatCommands.maxSchedules).compactMap { onCall($0)?.lines.first }
            if schedules.count > ChatCommands.maxSchedules {
                lines.append(words.line("… and \(schedules.count - ChatCommands.maxSchedules) more schedules"))
            }
            return ChatMessage(lines)
        case .schedule(let name):
            guard let schedule = state.schedule(idOrName: name) else { return unknown(name) }
            return onCall(schedule) ?? unknown(name)
        case .next(let name):
            guard let schedule = state.schedule(idOrName: name), let lookup = state.onDuty(of: schedule.id, at: now)
            else { return unknown(name) }
            guard let until = lookup.until else {
                return ChatMessage([words.line("Nobody else is planned on \(schedule.name).")])
            }
            let zone = words.clock(schedule.zone)
            let next = ChatPosts.people(
                lookup.next.map { .init($0.employeeID, in: state) }, none: words("nobody"), words: words)
            let from = ChatPosts.time(until, zone, now)
            return ChatMessage([words.line("Next on call for \(schedule.name): \(next) from \(from)")])
        case .me:
            guard !caller.isEmpty, let me = state.sortedEmployees.first(where: { $0.chat[platform.rawValue] == caller })
            else {
                let command = "`roster-client admin employee update NAME --chat \(platform.rawValue)=\(caller)`"
                return ChatMessage([
                    words.line(
                        "Roster does not know your \(platform.rawValue) handle (\(caller)): an admin adds it with \(command)."
                    )
                ])
            }
            let person = NotificationPayload.Person(me.id, in: state)
            var lines: [[ChatMessage.Piece]] = []
            for schedule in state.sortedSchedules {
                guard let lookup = state.onDuty(of: schedule.id, at: now) else { continue }
                let zone = words.clock(schedule.zone)
                if lookup.current.contains(where: { $0.employeeID == me.id }) {
                    let you = ChatMessage.Piece.person(person)
                    // One person: the plural messages' "one" form, as ChatPosts.onDuty says it.
                    if let until = lookup.until {
                        let time = ChatPosts.time(until, zone, now)
                        lines.append(
                            words.line(
                                1, "\(you) is on call for \(schedule.name) until \(time)",
                                "\(you) are on call for \(schedule.name) until \(time)"))
                    } else {
                        lines.append(
                            words.line(
                                1, "\(you) is on call for \(schedule.name)", "\(you) are on call for \(schedule.name)"))
                    }
                }
            }
            if lines.isEmpty {
                // Not on call: when they next are (the person's first stretch on any schedule).
                if let next = try? state.nextOnDuty(employee: me.id, schedule: nil, at: now).first,
                    let schedule = state.schedules[next.scheduleID]
                {
                    let (you, from) = (
                        ChatMessage.Piece.person(person),
                        ChatPosts.time(next.shift.start, words.clock(schedule.zone), now)
                    )
                    lines.append(
                        words.line("\(you) is not on call now; next on call for \(schedule.name) from \(from)."))
                } else {
                    let you = ChatMessage.Piece.person(person)
                    lines.append(words.line("\(you) is not on call now, nor planned to be in the next year."))
                }
            }
            return ChatMessage(lines)
        }
    }
}
