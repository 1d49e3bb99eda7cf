/// A tenant's named holiday calendar: local days, "YYYY-MM-DD". Restrictions skip them
/// (`RestrictionWindow.exceptHolidays`) and the hours report counts them as holiday time.
public struct HolidaySet: Sendable, Hashable, Codable {
    public var name: String
    /// Sorted, without repeats.
    public var days: [String]

    public init(name: String, days: [String]) {
        self.name = name
        self.days = Array(Set(days)).sorted()
    }

    /// The most calendars a tenant keeps; each holds at most `HoursReportOptions.maxHolidays` days.
    public static let maxPerTenant = 50

    /// The days as dates (those that parse; `violations` refuses the others).
    public var dates: Set<WallClock.Day> { Set(days.compactMap(LocalDateTime.parseDate)) }

    /// What a calendar's name may be: 1 to 64 ASCII letters, digits, '-' or '_' (it is written
    /// inside restrictions: "Mon-Fri 09:00-17:00 except holidays:NAME").
    public static func nameProblem(_ name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= 64,
            name.utf8.allSatisfy({
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 95
            })
        else { return "\"\(name)\" is not a calendar name: 1 to 64 letters, digits, '-' or '_'" }
        return nil
    }
}

extension RosterState {
    func violations(of calendar: HolidaySet, at location: String) -> [RosterViolation] {
        var found: [RosterViolation] = []
        func add(_ field: String, _ message: String) {
            found.append(RosterViolation(location: location, field: field, message: message))
        }
        if let problem = HolidaySet.nameProblem(calendar.name) { add("name", problem) }
        if calendar.days.count > HoursReportOptions.maxHolidays {
            add("days", "a calendar holds at most \(HoursReportOptions.maxHolidays) days")
        }
        for day in calendar.days.prefix(HoursReportOptions.maxHolidays + 1) where LocalDateTime.parseDate(day) == nil {
            add("days", "\"\(day)\" is not a date: use YYYY-MM-DD")
        }
        if holidays[calendar.name] == nil, holidays.count >= HolidaySet.maxPerTenant {
            add("name", "a tenant keeps at most \(HolidaySet.maxPerTenant) holiday calendars")
        }
        return found
    }

    /// Why a calendar may not be deleted: the schedules whose restrictions name it.
    func violations(deletingHolidays name: String, at location: String) -> [RosterViolation] {
        let naming = schedules.values.filter { $0.holidayNames.contains(name) }.map(\.name).sorted()
        guard naming.isEmpty else {
            return [
                RosterViolation(
                    location: location, field: "name",
                    message: "holidays:\(name) is in the restrictions of "
                        + naming.map { "\"\($0)\"" }.joined(separator: ", ") + "; take it out first")
            ]
        }
        return []
    }

    /// The days of the calendars `schedule`'s restrictions name, for the resolver.
    func holidayDays(for schedule: ScheduleDefinition) -> [String: Set<WallClock.Day>] {
        var days: [String: Set<WallClock.Day>] = [:]
        for name in schedule.holidayNames { days[name] = holidays[name]?.dates ?? [] }
        return days
    }

    /// The schedules whose restrictions name one of `names`.
    public func schedules(namingHolidays names: Set<String>) -> Set<String> {
        Set(schedules.values.filter { !$0.holidayNames.isDisjoint(with: names) }.map(\.id))
    }
}
