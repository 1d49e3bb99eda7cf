/// The words of a cadence and of a restriction window, as the CLI's `--every` and `--restrict`
/// read them (`ScheduleArguments`) and as plans and schedule files (docs/AS-CODE.md) write them.
extension Cadence {
    /// "30m", "12h", "1d", "1w", "1mo".
    public var text: String {
        switch self {
        case .minutes(let n): "\(n)m"
        case .hours(let n): "\(n)h"
        case .days(let n): "\(n)d"
        case .weeks(let n): "\(n)w"
        case .months(let n): "\(n)mo"
        }
    }
}

extension RestrictionWindow {
    /// "Mon-Fri 09:00-17:00", "first Monday of every 2 months 09:00-12:00 except holidays:NAME".
    public var text: String {
        var days = weekdays.count == 7 ? "" : WeekdayList.text(weekdays) + " "
        if let monthly {
            let ordinals = ["first", "second", "third", "fourth", "fifth"]
            let nth =
                monthly.nth == -1
                ? "last" : ordinals.indices.contains(monthly.nth - 1) ? ordinals[monthly.nth - 1] : "\(monthly.nth)"
            let what =
                monthly.weekday.map { nth + " " + WeekdayList.text([$0]) }
                ?? (monthly.nth == -1 ? "last day" : "day \(monthly.nth)")
            days = what + " of every " + (monthly.everyMonths == 1 ? "month " : "\(monthly.everyMonths) months ")
        }
        let except = exceptHolidays.isEmpty ? "" : " except holidays:" + exceptHolidays
        return days + Self.clockText(start) + "-" + Self.clockText(end) + except
    }
}
