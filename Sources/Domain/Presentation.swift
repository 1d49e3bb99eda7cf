/// How a directory listing is grouped.
public enum EmployeeGrouping: String, Sendable, CaseIterable, Codable {
    case position
    case team
}

/// A named group of employees, for list screens.
public struct EmployeeGroup: Sendable, Hashable {
    public var name: String
    public var employees: [Employee]

    public init(name: String, employees: [Employee]) {
        self.name = name
        self.employees = employees
    }
}

extension Collection where Element == Employee {
    /// The name of the group of deactivated people.
    public static var deactivatedGroup: String { "Deactivated" }

    /// Groups by position or team: groups A→Z (ignoring case and diacritics) with people by last
    /// name, then first name. People with no value form a group named "No position" or "No
    /// team"; deactivated people (`Employee.deactivated`) come last, in "Deactivated".
    public func grouped(by grouping: EmployeeGrouping) -> [EmployeeGroup] {
        let key: (Employee) -> String = { employee in
            let value = grouping == .position ? employee.position : employee.team
            return value.trimmingCharacters(in: .whitespaces)
        }
        // Names that differ only by case or accents land in one group, under the first spelling seen
        // in display order.
        var groups: [String: EmployeeGroup] = [:]
        var deactivated: [Employee] = []
        for employee in self.sortedForDisplay() {
            if employee.deactivated {
                deactivated.append(employee)
                continue
            }
            let name = key(employee)
            let folded = TextFolding.fold(name)
            groups[folded, default: EmployeeGroup(name: name, employees: [])].employees.append(employee)
        }
        let emptyName = grouping == .position ? "No position" : "No team"
        var named = groups.filter { !$0.key.isEmpty }.values.sorted {
            TextFolding.compare($0.name, $1.name) == .orderedAscending
        }
        if var unnamed = groups[""] {
            unnamed.name = emptyName
            named.append(unnamed)
        }
        if !deactivated.isEmpty { named.append(EmployeeGroup(name: Self.deactivatedGroup, employees: deactivated)) }
        return named
    }

    /// The employees matching `text` (see `EmployeeSearch`), in display order.
    public func matching(_ text: String) -> [Employee] {
        let search = EmployeeSearch(text)
        return filter(search.matches).sortedForDisplay()
    }
}

/// Search over first name, last name, full name, email, projects, position, team and phone, ignoring case
/// and diacritics. Every word of the query must appear in one of those fields.
public struct EmployeeSearch: Sendable {
    private let words: [String]

    public init(_ text: String) {
        words = TextFolding.fold(text).split(whereSeparator: \.isWhitespace).map(String.init)
    }

    public func matches(_ employee: Employee) -> Bool {
        guard !words.isEmpty else { return true }
        return words.allSatisfy { word in
            Self.contains(employee.firstName, word) || Self.contains(employee.lastName, word)
                || Self.contains(employee.email, word)
                || Self.contains(employee.position, word) || Self.contains(employee.team, word)
                || Self.contains(employee.phone, word) || employee.projects.contains { Self.contains($0, word) }
        }
    }

    /// Whether `field`, folded, contains `word` (folded already). An ASCII field and word are
    /// compared byte by byte, lowercasing as they go: a search of 12,000 people folds nothing and
    /// allocates nothing, where Foundation's search took most of the answer's time.
    static func contains(_ field: String, _ word: String) -> Bool {
        let quick =
            field.utf8.withContiguousStorageIfAvailable { haystack in
                word.utf8.withContiguousStorageIfAvailable { needle in
                    TextFolding.asciiContains(haystack, lowercased: needle)
                } ?? nil
            } ?? nil
        return quick ?? TextFolding.fold(field).contains(word)
    }
}
