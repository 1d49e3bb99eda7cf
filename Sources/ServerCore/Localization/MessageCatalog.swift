/// One language's translations, read from a gettext PO file (docs/WEB.md, "Languages"): each
/// message is keyed by its English text (`msgid`), placeholders `{1}`, `{2}` standing for the
/// values in it; a plural message has one `msgstr[n]` per form of the language. Fuzzy and
/// obsolete entries are not used (as `msgfmt` does), and an empty `msgstr` is no translation.
package struct MessageCatalog: Sendable {
    package struct Entry: Sendable, Equatable {
        package var plural: String?
        package var forms: [String]
        /// The first line of the entry, for messages about it.
        package var line: Int
    }

    package struct Invalid: Error, CustomStringConvertible {
        package var line: Int
        package var reason: String
        package var description: String { "line \(line): \(reason)" }
    }

    /// The catalog's entries by `msgid` (the header, `msgid ""`, is `headers`).
    package private(set) var entries: [String: Entry] = [:]
    package private(set) var headers: [String: String] = [:]

    package init() {}

    /// Reads a PO file: `msgid`, `msgid_plural`, `msgstr`, `msgstr[n]` with continued string
    /// lines, `#` comments (`#, fuzzy` marks the next entry unused). A line of any other kind
    /// is refused with its number.
    /// - Parameter template: keep the entries with no translation (a `.pot` is all of them).
    package init(parsing text: String, template: Bool = false) throws(Invalid) {
        struct Pending {
            var line = 0
            var id: String?
            var plural: String?
            var forms: [Int: String] = [:]
            var fuzzy = false
        }
        var pending = Pending()
        // Where a continued string line goes: the id, the plural id, or form n.
        enum Field { case id, plural, form(Int) }
        var field: Field?

        func finish(_ entry: Pending) throws(Invalid) {
            guard let id = entry.id else {
                if !entry.forms.isEmpty { throw Invalid(line: entry.line, reason: "msgstr without msgid") }
                return
            }
            let count = (entry.forms.keys.max() ?? -1) + 1
            guard count == entry.forms.count else { throw Invalid(line: entry.line, reason: "msgstr[n] not from 0 up") }
            if id.isEmpty {
                for header in (entry.forms[0] ?? "").split(separator: "\n") {
                    guard let colon = header.firstIndex(of: ":") else { continue }
                    headers[String(header[..<colon])] = header[header.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                return
            }
            guard !entry.fuzzy else { return }
            let forms = (0..<count).map { entry.forms[$0]! }
            guard template || forms.contains(where: { !$0.isEmpty }) else { return }
            guard entries[id] == nil else { throw Invalid(line: entry.line, reason: "\"\(id)\" twice") }
            entries[id] = Entry(plural: entry.plural, forms: forms, line: entry.line)
        }

        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.hasPrefix("#,") && line.contains("fuzzy") {
                    try finish(pending)
                    pending = Pending(line: number, fuzzy: true)
                    field = nil
                }
                continue
            }
            if line.hasPrefix("\"") {
                guard let field else { throw Invalid(line: number, reason: "a string outside an entry") }
                let value = try Self.string(line, line: number)
                switch field {
                case .id: pending.id! += value
                case .plural: pending.plural! += value
                case .form(let n): pending.forms[n]! += value
                }
                continue
            }
            guard let space = line.firstIndex(of: " ") else { throw Invalid(line: number, reason: "not PO") }
            let keyword = line[..<space]
            let value = try Self.string(
                line[line.index(after: space)...].trimmingCharacters(in: .whitespaces), line: number)
            switch keyword {
            case "msgid":
                if pending.id != nil || !pending.forms.isEmpty {
                    try finish(pending)
                    pending = Pending()
                }
                pending.line = pending.line == 0 ? number : pending.line
                pending.id = value
                field = .id
            case "msgid_plural":
                guard pending.id != nil, pending.plural == nil else {
                    throw Invalid(line: number, reason: "msgid_plural out of place")
                }
                pending.plural = value
                field = .plural
            case "msgstr":
                guard pending.id != nil, pending.plural == nil, pending.forms.isEmpty else {
                    throw Invalid(line: number, reason: "msgstr out of place")
                }
                pending.forms[0] = value
                field = .form(0)
            default:
                // msgstr[n], for a plural message; at most six forms in any language.
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"), pending.plural != nil,
                    let n = Int(keyword.dropFirst(7).dropLast()), (0..<6).contains(n), pending.forms[n] == nil
                else { throw Invalid(line: number, reason: "unknown keyword \(keyword)") }
                pending.forms[n] = value
                field = .form(n)
            }
        }
        try finish(pending)
    }

    /// A quoted PO string: `\n`, `\t`, `\"` and `\\` are its escapes.
    private static func string(_ text: String, line: Int) throws(Invalid) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else {
            throw Invalid(line: line, reason: "not a quoted string")
        }
        var value = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "\"", "\\": value.append(character)
                default: throw Invalid(line: line, reason: "unknown escape \\\(character)")
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                throw Invalid(line: line, reason: "an unescaped quote")
            } else {
                value.append(character)
            }
        }
        guard !escaped else { throw Invalid(line: line, reason: "a string ends in a backslash") }
        return value
    }

    /// The translation of `id` (`form` for a plural message), nil when the catalog has none.
    package func translation(_ id: String, form: Int = 0) -> String? {
        guard let entry = entries[id] else { return nil }
        let text = entry.forms[min(form, entry.forms.count - 1)]
        return text.isEmpty ? nil : text
    }
}
