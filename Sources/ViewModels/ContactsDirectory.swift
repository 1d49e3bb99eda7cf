import Foundation
import RosterDomain

/// A person from the phone's or the desktop's address book.
public struct Contact: Sendable, Hashable, Codable {
    public var firstName: String
    public var lastName: String
    /// The formatted name (vCard FN), or first and last name joined.
    public var fullName: String
    public var phones: [String]
    public var emails: [String]

    public init(
        firstName: String, lastName: String, fullName: String? = nil, phones: [String] = [], emails: [String] = []
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.fullName = fullName ?? "\(firstName) \(lastName)"
        self.phones = phones
        self.emails = emails
    }
}

/// Where contacts come from: a vCard file here, the system's address book in an app.
public protocol ContactsDirectory: Sendable {
    /// The contact whose first and last names equal the employee's, ignoring case and
    /// diacritics; nil when there is none.
    func contact(matching employee: Employee) -> Contact?
}

extension ContactsDirectory {
    public func matches(_ employee: Employee) -> Bool { contact(matching: employee) != nil }
}

/// Contacts read from a vCard file (versions 3.0 and 4.0, RFC 2426 and RFC 6350): folded lines,
/// escaped text, grouped properties (`item1.TEL`), the N and FN properties, TEL and EMAIL. A
/// card that cannot be read is skipped and named in `warnings`; the others are kept.
public struct VCardDirectory: ContactsDirectory {
    public private(set) var contacts: [Contact] = []
    /// One sentence per skipped card, naming its line.
    public private(set) var warnings: [String] = []
    private var byName: [String: Contact] = [:]

    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        self.init(parsing: String(decoding: data, as: UTF8.self), source: url.lastPathComponent)
    }

    public init(parsing text: String, source: String = "vCard") {
        var card: [(line: Int, name: String, value: String)]?
        var cardLine = 0
        for (number, line) in Self.unfolded(text) {
            guard let (name, value) = Self.property(line) else {
                if card != nil, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    warnings.append(
                        "\(source):\(number): skipped a contact: \"\(line.prefix(40))\" is not a vCard property")
                    card = nil
                }
                continue
            }
            switch (name, value.uppercased()) {
            case ("BEGIN", "VCARD"):
                if card != nil { warnings.append("\(source):\(cardLine): skipped a contact without END:VCARD") }
                card = []
                cardLine = number
            case ("END", "VCARD"):
                if let properties = card { add(properties, line: cardLine, source: source) }
                card = nil
            default:
                card?.append((number, name, value))
            }
        }
        if card != nil { warnings.append("\(source):\(cardLine): skipped a contact without END:VCARD") }
    }

    public func contact(matching employee: Employee) -> Contact? {
        byName[Self.key(first: employee.firstName, last: employee.lastName)]
    }

    private mutating func add(_ properties: [(line: Int, name: String, value: String)], line: Int, source: String) {
        var first = "", last = "", formatted: String?, phones: [String] = [], emails: [String] = []
        var hasName = false
        for property in properties {
            switch property.name {
            case "N":
                let parts = Self.components(property.value, separator: ";")
                last = parts.first ?? ""
                first = parts.count > 1 ? parts[1] : ""
                hasName = true
            case "FN":
                formatted = Self.unescaped(property.value)
            case "TEL":
                phones.append(Self.unescaped(property.value).replacingOccurrences(of: "tel:", with: ""))
            case "EMAIL":
                emails.append(Self.unescaped(property.value))
            default:
                break
            }
        }
        if !hasName, let formatted {
            // No N: take the last word of FN as the last name.
            let words = formatted.split(separator: " ").map(String.init)
            last = words.last ?? ""
            first = words.dropLast().joined(separator: " ")
            hasName = !words.isEmpty
        }
        let names = [first, last].map { $0.trimmingCharacters(in: .whitespaces) }
        guard hasName, !names[0].isEmpty || !names[1].isEmpty else {
            warnings.append("\(source):\(line): skipped a contact with neither N nor FN")
            return
        }
        let contact = Contact(
            firstName: names[0], lastName: names[1], fullName: formatted, phones: phones, emails: emails)
        contacts.append(contact)
        let key = Self.key(first: contact.firstName, last: contact.lastName)
        if byName[key] == nil { byName[key] = contact }  // the first card with a name wins
    }

    private static func key(first: String, last: String) -> String {
        TextFolding.fold(first.trimmingCharacters(in: .whitespaces)) + "\u{1F}"
            + TextFolding.fold(last.trimmingCharacters(in: .whitespaces))
    }

    /// Lines with continuations joined (a line starting with a space or tab continues the one
    /// before), each with the number of its first physical line.
    static func unfolded(_ text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        // "\r\n" is one Character in Swift: split on either line ending.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .enumerated()
        {
            var line = String(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].1 += line.dropFirst()
            } else {
                lines.append((index + 1, line))
            }
        }
        return lines
    }

    /// NAME and raw value of a content line `[group.]NAME[;params]:value`, NAME upper-cased.
    static func property(_ line: String) -> (String, String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let head = line[..<colon]
        var name = String(head.split(separator: ";", maxSplits: 1).first ?? "")
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }
        return (name.uppercased(), String(line[line.index(after: colon)...]))
    }

    /// A structured value split on unescaped `separator`, each part unescaped.
    static func components(_ value: String, separator: Character) -> [String] {
        var parts: [String] = [], current = "", escaped = false
        for character in value {
            if escaped {
                current.append("\\")
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == separator {
                parts.append(unescaped(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(unescaped(current))
        return parts
    }

    /// vCard text escapes: `\n` and `\N` are newlines; `\,`, `\;` and `\\` stand for themselves.
    static func unescaped(_ value: String) -> String {
        var result = "", escaped = false
        for character in value {
            if escaped {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
