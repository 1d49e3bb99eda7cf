/// A person's handle on each chat platform (docs/CHAT.md): how a post or a slash command's
/// answer mentions them, and how `/oncall me` knows who asks. Empty: the person's name only.
public enum ChatPlatform: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// A member ID, e.g. U012AB3CD (mentioned as <@U012AB3CD>).
    case slack
    /// A username without the @ (mentioned as @ada).
    case mattermost
    /// A user principal name or email (mentioned through the card's entities).
    case teams
    /// A full user ID, e.g. @ada:example.org.
    case matrix
    /// A numeric user ID, e.g. 80351110224678912 (mentioned as <@80351110224678912>).
    case discord

    public static func < (a: ChatPlatform, b: ChatPlatform) -> Bool { a.rawValue < b.rawValue }
}

/// The one reader of chat handles as text: "slack=U012AB3CD; mattermost=ada" (a CSV column and
/// `admin employee --chat`), and the one check of a handle, wherever it comes from.
public enum ChatHandles {
    /// The longest handle kept.
    public static let maxHandle = 200
    /// Mattermost's mentions of a whole channel, which no person's username may be.
    static let mattermostGroupMentions: Set<String> = ["all", "channel", "here"]

    /// The handles `text` names; every problem at once.
    public static func parse(_ text: String) -> Result<[String: String], ChatHandleProblems> {
        var handles: [String: String] = [:]
        var problems: [String] = []
        for part in text.split(separator: ";") {
            let entry = part.trimmingCharacters(in: .whitespaces)
            guard !entry.isEmpty else { continue }
            guard let equals = entry.firstIndex(of: "=") else {
                problems.append("\"\(entry)\" is not PLATFORM=HANDLE (e.g. slack=U012AB3CD)")
                continue
            }
            let platform = entry[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let handle = entry[entry.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if handles[platform] != nil { problems.append("\(platform) is given twice") }
            handles[platform] = handle
        }
        problems += self.problems(handles)
        return problems.isEmpty ? .success(handles) : .failure(ChatHandleProblems(messages: problems))
    }

    /// What is wrong with `handles`: unknown platforms, empty, overlong or malformed handles.
    public static func problems(_ handles: [String: String]) -> [String] {
        var found: [String] = []
        for (name, handle) in handles.sorted(by: { $0.key < $1.key }) {
            guard let platform = ChatPlatform(rawValue: name) else {
                found.append(
                    "\"\(name)\" is not a chat platform (\(ChatPlatform.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
                continue
            }
            if handle.isEmpty { found.append("the \(name) handle is empty"); continue }
            // @all, @channel and @here notify everyone in a Mattermost channel (Slack's are
            // written <!here>, which the markup check refuses).
            if platform == .mattermost, Self.mattermostGroupMentions.contains(handle.lowercased()) {
                found.append(
                    "the mattermost handle \"\(handle)\" is a mention of everyone in the channel, not a person")
                continue
            }
            if handle.count > maxHandle {
                found.append("the \(name) handle is longer than \(maxHandle) characters"); continue
            }
            // No spaces, markup or control characters: a handle goes into a post verbatim.
            if handle.unicodeScalars.contains(where: {
                $0.value < 0x21 || $0.value == 0x7F || "<>&\"'`;|*_~".unicodeScalars.contains($0)
            }) {
                found.append(
                    "the \(name) handle \"\(handle)\" has a space, a control character or one of < > & \" ' ` ; | * _ ~"
                )
                continue
            }
            let valid =
                switch platform {
                case .slack:
                    handle.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) }
                        && handle.first?.isLetter == true
                case .mattermost: !handle.hasPrefix("@")
                case .teams: handle.contains("@")
                case .matrix: handle.hasPrefix("@") && handle.contains(":")
                case .discord: handle.allSatisfy { $0.isASCII && $0.isNumber }
                }
            if !valid {
                let shape =
                    switch platform {
                    case .slack: "a member ID such as U012AB3CD"
                    case .mattermost: "a username without the @"
                    case .teams: "a user principal name such as ada@example.com"
                    case .matrix: "a user ID such as @ada:example.org"
                    case .discord: "a numeric user ID"
                    }
                found.append("the \(name) handle \"\(handle)\" is not \(shape)")
            }
        }
        return found
    }

    /// "discord=80351110224678912; slack=U012AB3CD": what `parse` reads back.
    public static func text(_ handles: [String: String]) -> String {
        handles.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }
}

public struct ChatHandleProblems: Error, Sendable, CustomStringConvertible {
    public var messages: [String]
    public var description: String { messages.joined(separator: "; ") }
}
