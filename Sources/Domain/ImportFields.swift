import Foundation
import SwiftCSV

/// The employee fields a file can give, by their CSV column and JSON key.
public enum EmployeeField: String, Sendable, CaseIterable {
    case id, firstName, lastName, email, phone, position, team, projects, biography, photoURL, type, chat

    /// The normalized column name (see `FieldReader.normalize`).
    var column: String { FieldReader.normalize(rawValue) }
}

extension Employee {
    /// This employee with the `fields` of `other` (the id stays).
    public func merging(_ other: Employee, fields: Set<EmployeeField>) -> Employee {
        var merged = self
        for field in fields {
            switch field {
            case .id: break
            case .firstName: merged.firstName = other.firstName
            case .lastName: merged.lastName = other.lastName
            case .email: merged.email = other.email
            case .phone: merged.phone = other.phone
            case .position: merged.position = other.position
            case .team: merged.team = other.team
            case .projects: merged.projects = other.projects
            case .biography: merged.biography = other.biography
            case .photoURL: merged.photoURL = other.photoURL
            case .type: merged.type = other.type
            case .chat: merged.chat = other.chat
            }
        }
        return merged
    }
}

/// What the CSV parser does not say: where a quoted field that never closes was opened, and on
/// which line each record starts.
enum CSVText {
    static func unclosedQuoteLine(_ text: String) -> Int? {
        scan(text).unclosedAt
    }

    static func recordStartLines(_ text: String) -> [Int] {
        scan(text).starts
    }

    private static func scan(_ text: String) -> (starts: [Int], unclosedAt: Int?) {
        var line = 1, starts = [1], inQuotes = false, openedAt = 0, atFieldStart = true
        var iterator = Array(text.unicodeScalars).makeIterator()
        var pending: Unicode.Scalar? = nil
        while let scalar = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if scalar == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { continue }  // an escaped quote
                        pending = next
                    }
                    inQuotes = false
                } else if scalar == "\n" {
                    line += 1
                }
                continue
            }
            switch scalar {
            case "\"" where atFieldStart:
                inQuotes = true
                openedAt = line
                atFieldStart = false
            case ",":
                atFieldStart = true
            case "\n":
                line += 1
                starts.append(line)
                atFieldStart = true
            case "\r":
                break
            default:
                atFieldStart = false
            }
        }
        return (starts, inQuotes ? openedAt : nil)
    }
}

/// Reads loosely-typed record fields (JSON objects, CSV rows), collecting what is wrong.
struct FieldReader {
    let record: [String: Any]
    let location: String
    var violations: [RosterViolation] = []

    init(record: [String: Any], location: String) {
        // Keys match ignoring case and punctuation: first_name, firstName and "First name" are one.
        self.record = Dictionary(
            record.map { (Self.normalize($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.location = location
    }

    static func normalize(_ key: String) -> String {
        key.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    func has(_ key: String) -> Bool { record[Self.normalize(key)] != nil }

    func value(_ key: String) -> Any? { record[Self.normalize(key)] }

    /// An employee from the record's fields, and which fields it gave.
    mutating func employee(projects: (inout FieldReader) -> [String]) -> (Employee, Set<EmployeeField>) {
        let present = Set(EmployeeField.allCases.filter { has($0.rawValue) })
        let employee = Employee(
            id: string("id"), firstName: string("firstName"), lastName: string("lastName"), email: string("email"),
            phone: string("phone"), position: string("position"), team: string("team"), projects: projects(&self),
            biography: string("biography"), photoURL: string("photoURL"), type: employeeType("type"),
            chat: chatHandles("chat"))
        return (employee, present)
    }

    mutating func string(_ key: String) -> String {
        switch record[Self.normalize(key)] {
        case nil, is NSNull: return ""
        case let text as String: return text
        default:
            violations.append(RosterViolation(location: location, field: key, message: "is not text"))
            return ""
        }
    }

    mutating func strings(_ key: String) -> [String] {
        switch record[Self.normalize(key)] {
        case nil, is NSNull: return []
        case let list as [Any]:
            let texts = list.compactMap { $0 as? String }
            if texts.count != list.count {
                violations.append(RosterViolation(location: location, field: key, message: "is not a list of text"))
            }
            return texts
        default:
            violations.append(RosterViolation(location: location, field: key, message: "is not a list"))
            return []
        }
    }

    /// Chat handles: a JSON object of platform to handle, or the text "slack=U1; mattermost=ada".
    mutating func chatHandles(_ key: String) -> [String: String] {
        switch record[Self.normalize(key)] {
        case nil, is NSNull: return [:]
        case let text as String:
            switch ChatHandles.parse(text) {
            case .success(let handles): return handles
            case .failure(let problems):
                violations += problems.messages.map { RosterViolation(location: location, field: key, message: $0) }
                return [:]
            }
        case let object as [String: Any]:
            var handles: [String: String] = [:]
            for (platform, value) in object {
                guard let handle = value as? String else {
                    violations.append(
                        RosterViolation(location: location, field: key, message: "the \(platform) handle is not text"))
                    continue
                }
                handles[platform] = handle
            }
            return handles
        default:
            violations.append(
                RosterViolation(location: location, field: key, message: "is not an object of platform to handle"))
            return [:]
        }
    }

    mutating func employeeType(_ key: String) -> EmployeeType {
        let text = string(key)
        if let type = EmployeeType(parsing: text) { return type }
        violations.append(
            RosterViolation(
                location: location, field: key,
                message: "\"\(text)\" is not one of full-time, part-time, contractor"))
        return .unspecified
    }
}

extension EmployeeType {
    /// Accepts "full-time", "FULL_TIME", "Full time", "fulltime" and the like.
    public init?(parsing text: String) {
        switch text.lowercased().filter({ $0.isLetter }) {
        case "": self = .unspecified
        case "fulltime": self = .fullTime
        case "parttime": self = .partTime
        case "contractor": self = .contractor
        default: return nil
        }
    }
}
