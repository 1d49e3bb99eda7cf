import Foundation

/// A state's folded-name index, built from its directory on first use. Copies of a state share
/// it; a change to the directory gives the changed copy a new one (the built index updated, which
/// shards make cheap, or an unbuilt one), so a copy never sees another copy's people. Derived
/// data: it takes no part in equality.
final class EmployeeNameIndex: @unchecked Sendable, Hashable {  // `built` is guarded by `lock`
    private let lock = NSLock()
    private var built: ShardedDictionary<Set<String>>?

    init(built: ShardedDictionary<Set<String>>? = nil) { self.built = built }

    func ids(named folded: String, in employees: EmployeeDirectory) -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if built == nil {
            var index = ShardedDictionary<Set<String>>()
            index.reserveCapacity(employees.count)
            for employee in employees.values {
                index[TextFolding.fold(employee.fullName), default: []].insert(employee.id)
            }
            built = index
        }
        return built?[folded] ?? []
    }

    /// Files the change of one employee's name (`previous` left, `employee` came), in place: for
    /// an index only one state holds.
    func update(removing previous: Employee?, adding employee: Employee?) {
        lock.withLock { Self.file(removing: previous, adding: employee, in: &built) }
    }

    /// A new index with the change filed: for an index other copies share.
    func changed(removing previous: Employee?, adding employee: Employee?) -> EmployeeNameIndex {
        var index = lock.withLock { built }
        Self.file(removing: previous, adding: employee, in: &index)
        return EmployeeNameIndex(built: index)
    }

    private static func file(
        removing previous: Employee?, adding employee: Employee?,
        in index: inout ShardedDictionary<Set<String>>?
    ) {
        guard index != nil else { return }  // not built: built from the directory when asked
        if let previous {
            let key = TextFolding.fold(previous.fullName)
            var ids = index?[key] ?? []
            ids.remove(previous.id)
            index?[key] = ids.isEmpty ? nil : ids
        }
        if let employee { index?[TextFolding.fold(employee.fullName), default: []].insert(employee.id) }
    }

    static func == (a: EmployeeNameIndex, b: EmployeeNameIndex) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
