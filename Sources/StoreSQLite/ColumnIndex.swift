import GRDB

/// Where each column of a query's rows is, found once from the statement: reading a row's
/// column by name looks the name up, case-insensitively, on every read, which for a query that
/// reads thousands of rows (the outbox's heads during a handoff) was a tenth of the work. Like
/// GRDB's own lookup, a name given twice means its leftmost column.
struct ColumnIndex {
    private let positions: [String: Int]

    init(_ names: [String]) {
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() where positions[name.lowercased()] == nil {
            positions[name.lowercased()] = position
        }
        self.positions = positions
    }

    /// The value of the column `name` (as the query's SQL spells it, in lower case) in `row`.
    func callAsFunction<Value: DatabaseValueConvertible>(_ row: Row, _ name: String) -> Value {
        guard let position = positions[name] else { preconditionFailure("the query has no column \(name)") }
        return row[position]
    }
}
