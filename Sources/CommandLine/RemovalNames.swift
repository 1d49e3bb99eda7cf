import Foundation
import RosterClient
import RosterDomain

/// What a removal takes away, named as a person reads it ("Ada Lovelace (e12)"), not only by the
/// id or text the user typed. Each asks the server (or, for a shift, the cache) before the change
/// is sent; when it cannot tell, the text given is used and the change itself reports any error.
extension CommandRunner {
    public func employeeRemovalName(_ nameOrID: String) async -> String {
        guard let (employee, _) = try? await client.employee(nameOrID) else { return nameOrID }
        return "\(employee.fullName) (\(employee.id))"
    }

    /// A shift by the cache the last read left (the server has no single-shift query).
    public func shiftRemovalName(_ id: String) async -> String {
        guard let state = await client.roster?.state, let shift = state.shifts[id] else { return "shift \(id)" }
        let person = state.employees[shift.employeeID]?.fullName ?? shift.employeeID
        return
            "shift \(id): \(person), \(display.dateTime(shift.start)) – \(display.dateTime(shift.end)) \(display.zoneName)"
    }

    public func scheduleRemovalName(_ nameOrID: String) async -> String {
        guard let schedules = try? await client.schedules(),
            let schedule = Self.find(nameOrID, in: schedules)
        else { return "schedule \(nameOrID)" }
        return "schedule \(schedule.name) (\(schedule.id))"
    }

    public func overrideRemovalName(_ id: String, schedule nameOrID: String) async -> String {
        guard let schedules = try? await client.schedules(),
            let schedule = Self.find(nameOrID, in: schedules),
            let override = schedule.overrides.first(where: { $0.id == id })
        else { return "override \(id)" }
        var names: [String: String] = [:]
        for employeeID in override.people {
            if let (employee, _) = try? await client.employee(employeeID) { names[employeeID] = employee.fullName }
        }
        return "override \(id) from \(schedule.name): "
            + Self.describe(override, in: schedule, display: display) { names[$0] }
    }

    /// One override as `schedule show` lists it: who for whom, the window in the schedule's zone.
    static func describe(
        _ override: ScheduleOverride, in schedule: ScheduleDefinition, display: Display,
        name: (String) -> String?
    ) -> String {
        var local = display
        local.timeZone = TimeZone(identifier: schedule.zone) ?? TimeZone(identifier: "UTC")!
        let what: String =
            switch override.kind {
            case .replace(let a, let b): "\(name(b) ?? b) replaces \(name(a) ?? a)"
            case .add(let a): "\(name(a) ?? a) added"
            case .remove(let a): "\(name(a) ?? a) removed"
            }
        return "\(what), \(local.dateTime(override.start)) – \(local.dateTime(override.end)) \(schedule.zone)"
    }
}

extension ScheduleOverride {
    /// The employee ids the override names.
    var people: [String] {
        switch kind {
        case .replace(let a, let b): [a, b]
        case .add(let a), .remove(let a): [a]
        }
    }
}
