import Foundation
import RosterDomain
import RosterServerCore
import RosterStore

/// A chat post before it takes a platform's shape: lines of text, people (mentioned by their
/// handle on the platform when the directory has one) and instants (shown in a schedule's zone,
/// labelled; on Slack as a `<!date>` token each reader sees in their own zone).
struct ChatMessage: Sendable {
    enum Piece: Sendable {
        case text(String)
        case person(NotificationPayload.Person)
        /// An instant, with the text it falls back to (the schedule's zone, labelled).
        case time(UnixMillis, String)
    }

    var lines: [[Piece]]

    init(_ lines: [[Piece]]) { self.lines = lines }

    /// The post as plain text, names only: what a reader without the platform's markup sees.
    var plain: String {
        lines.map { line in
            line.map { piece in
                switch piece {
                case .text(let text): text
                case .person(let person): person.name
                case .time(_, let fallback): fallback
                }
            }.joined()
        }.joined(separator: "\n")
    }

    /// The body a `format` webhook posts (docs/CHAT.md has each shape).
    func body(_ format: WebhookFormat) -> Data {
        switch format {
        case .json, .webPush, .ntfy: Data(plain.utf8)
        case .slack: Self.json(["text": text(for: .slack)])
        case .mattermost: Self.json(["text": text(for: .mattermost)])
        case .discord:
            // Only the people named may be pinged: a name like "@everyone" stays text.
            Self.json([
                "content": text(for: .discord),
                "allowed_mentions": ["parse": [String](), "users": handles(.discord)] as [String: Any],
            ])
        case .teams: teamsCard()
        case .matrix: matrixContent()
        }
    }

    /// The handles of the people mentioned, on `platform`, each once.
    private func handles(_ platform: ChatPlatform) -> [String] {
        var found: [String] = []
        for line in lines {
            for case .person(let person) in line {
                if let handle = person.chat?[platform.rawValue], !found.contains(handle) { found.append(handle) }
            }
        }
        return found
    }

    /// Markdown-flavoured text (Slack's mrkdwn, Mattermost's and Discord's Markdown).
    func text(for platform: ChatPlatform) -> String {
        lines.map { line in
            line.map { piece -> String in
                switch piece {
                case .text(let text): return Self.escape(text, for: platform)
                case .person(let person):
                    let name = Self.escape(person.name, for: platform)
                    guard let handle = person.chat?[platform.rawValue] else { return name }
                    switch platform {
                    case .slack, .discord: return "\(name) (<@\(handle)>)"
                    case .mattermost: return "\(name) (@\(handle))"
                    case .teams, .matrix: return name
                    }
                case .time(let instant, let fallback):
                    guard platform == .slack else { return Self.escape(fallback, for: platform) }
                    return "<!date^\(instant / 1000)^{date_short_pretty} {time}|\(Self.escape(fallback, for: .slack))>"
                }
            }.joined()
        }.joined(separator: "\n")
    }

    /// Text from the directory or a note, made inert: Slack's control characters, Markdown's
    /// emphasis and links, and an "@" that would ping a whole channel.
    static func escape(_ text: String, for platform: ChatPlatform) -> String {
        var out = ""
        for character in text {
            switch (platform, character) {
            case (.slack, "&"): out += "&amp;"
            case (.slack, "<"): out += "&lt;"
            case (.slack, ">"): out += "&gt;"
            case (.mattermost, "*"), (.mattermost, "_"), (.mattermost, "~"), (.mattermost, "`"), (.mattermost, "["),
                (.mattermost, "]"), (.mattermost, "#"), (.mattermost, "|"), (.mattermost, "<"), (.mattermost, ">"),
                (.discord, "*"), (.discord, "_"), (.discord, "~"), (.discord, "`"), (.discord, "["), (.discord, "]"),
                (.discord, "|"), (.discord, "<"), (.discord, ">"), (.discord, "#"),
                // Teams' cards read CommonMark: a name or note must not become a link, emphasis or
                // a mention tag (<at>…</at>) of its own.
                (.teams, "\\"), (.teams, "*"), (.teams, "_"), (.teams, "~"), (.teams, "`"), (.teams, "["),
                (.teams, "]"),
                (.teams, "("), (.teams, ")"), (.teams, "#"), (.teams, "|"), (.teams, "<"), (.teams, ">"), (.teams, "!"):
                out += "\\" + String(character)
            // A zero-width space after "@" keeps "@channel" and "@all" from notifying everyone.
            case (.mattermost, "@"): out += "@\u{200B}"
            default: out.append(character)
            }
        }
        return out
    }

    /// An Adaptive Card (1.4) in a message, the shape Teams' "post to a channel when a webhook
    /// request is received" workflow takes; people with a handle are mentioned through `msteams`.
    private func teamsCard() -> Data {
        var entities: [[String: Any]] = []
        let blocks: [[String: Any]] = lines.map { line in
            let text = line.map { piece -> String in
                switch piece {
                case .text(let text): return Self.escape(text, for: .teams)
                case .time(_, let fallback): return Self.escape(fallback, for: .teams)
                case .person(let person):
                    let name = Self.escape(person.name, for: .teams)
                    guard let handle = person.chat?[ChatPlatform.teams.rawValue] else { return name }
                    let tag = "<at>\(name)</at>"
                    if !entities.contains(where: { ($0["text"] as? String) == tag }) {
                        entities.append([
                            "type": "mention", "text": tag, "mentioned": ["id": handle, "name": person.name],
                        ])
                    }
                    return tag
                }
            }.joined()
            return ["type": "TextBlock", "text": text, "wrap": true]
        }
        var card: [String: Any] = [
            "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
            "type": "AdaptiveCard",
            "version": "1.4",
            "body": blocks,
        ]
        if !entities.isEmpty { card["msteams"] = ["entities": entities] }
        return Self.json([
            "type": "message",
            "attachments": [
                ["contentType": "application/vnd.microsoft.card.adaptive", "contentUrl": NSNull(), "content": card]
            ],
        ])
    }

    /// An `m.room.message` event's content: plain `body`, HTML `formatted_body` with people as
    /// matrix.to links, and `m.mentions` naming the users mentioned.
    private func matrixContent() -> Data {
        let html = lines.map { line in
            line.map { piece -> String in
                switch piece {
                case .text(let text): return Self.html(text)
                case .time(_, let fallback): return Self.html(fallback)
                case .person(let person):
                    guard let handle = person.chat?[ChatPlatform.matrix.rawValue] else { return Self.html(person.name) }
                    return "<a href=\"https://matrix.to/#/\(Self.html(handle))\">\(Self.html(person.name))</a>"
                }
            }.joined()
        }.joined(separator: "<br>")
        let body = lines.map { line in
            line.map { piece -> String in
                if case .person(let person) = piece, let handle = person.chat?[ChatPlatform.matrix.rawValue] {
                    return "\(person.name) (\(handle))"
                }
                return ChatMessage([[piece]]).plain
            }.joined()
        }.joined(separator: "\n")
        return Self.json([
            "msgtype": "m.text", "body": body, "format": "org.matrix.custom.html", "formatted_body": html,
            "m.mentions": ["user_ids": handles(.matrix)],
        ])
    }

    private static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Sorted keys: the same post always has the same bytes.
    static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
    }
}
