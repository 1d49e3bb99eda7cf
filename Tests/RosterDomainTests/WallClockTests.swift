import Foundation
import PropertyBased
import RosterDomain
import Testing

/// WallClock's integer date arithmetic agrees with Foundation's Gregorian calendar.
@Suite(.timeLimit(.minutes(10))) struct WallClockTests {
    @Test func dayArithmeticAndWeekdaysAgreeWithTheCalendar() async {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let clock = WallClock(zone: "UTC")!
        let input = zip(
            Gen.int(in: 1900...2100), Gen.int(in: 1...12), Gen.int(in: 1...28), Gen.int(in: -800...800),
            Gen.int(in: -30...30))
        await propertyCheck(count: 1000, input: input) { year, month, dayOfMonth, days, months in
            let day = WallClock.Day(year: year, month: month, day: dayOfMonth)
            let date = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth, hour: 12))!
            let movedDays = calendar.dateComponents(
                [.year, .month, .day], from: calendar.date(byAdding: .day, value: days, to: date)!)
            #expect(
                clock.day(day, adding: days)
                    == WallClock.Day(year: movedDays.year!, month: movedDays.month!, day: movedDays.day!))
            let movedMonths = calendar.dateComponents(
                [.year, .month, .day], from: calendar.date(byAdding: .month, value: months, to: date)!)
            #expect(
                clock.day(day, months: months)
                    == WallClock.Day(year: movedMonths.year!, month: movedMonths.month!, day: movedMonths.day!))
            #expect(clock.weekday(of: day) == calendar.component(.weekday, from: date))
            let midnight = UnixMillis(date.timeIntervalSince1970 * 1000) - 12 * 3_600_000
            #expect(clock.instant(day, minuteOfDay: 0) == midnight)
            #expect(clock.day(of: midnight + 3_600_000).day == day)
        }
    }

    @Test func theEndOfAMonthIsClampedWhenAddingMonths() {
        let clock = WallClock(zone: "Europe/Berlin")!
        #expect(
            clock.day(WallClock.Day(year: 2027, month: 1, day: 31), months: 1)
                == WallClock.Day(year: 2027, month: 2, day: 28))
        #expect(
            clock.day(WallClock.Day(year: 2028, month: 1, day: 31), months: 1)
                == WallClock.Day(year: 2028, month: 2, day: 29))
        #expect(
            clock.day(WallClock.Day(year: 2027, month: 3, day: 31), months: -13)
                == WallClock.Day(year: 2026, month: 2, day: 28))
    }
}
