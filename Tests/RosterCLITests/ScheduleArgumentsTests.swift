import RosterCommandLine
import RosterDomain
import Testing

/// The schedule-definition arguments refuse what they do not understand exactly, naming it,
/// instead of reading a part of it (issue #31: "Mon+Tue" became Monday, "Ada,,Alan" a slot less).
@Suite(.timeLimit(.minutes(10))) struct ScheduleArgumentsTests {
    @Test func restrictionsNameTheirDaysExactly() throws {
        #expect(try ScheduleArguments.restriction("Mon-Fri 09:00-17:00").weekdays == Set(2...6))
        #expect(try ScheduleArguments.restriction("Sat,Sun 10:00-14:00").weekdays == [7, 1])
        #expect(try ScheduleArguments.restriction("Monday,Tuesday 08:00-20:00").weekdays == [2, 3])
        #expect(try ScheduleArguments.restriction("Fri-Mon 22:00-06:00").weekdays == [6, 7, 1, 2])
        #expect(try ScheduleArguments.restriction("22:00-06:00").weekdays == Set(1...7))
        for bad in [
            "Mon+Tue 08:00-20:00", "Mon;Tue 08:00-20:00", "Mon/Tue 08:00-20:00", "Mon+Xyz 08:00-20:00",
            "Mo 08:00-20:00", "Monx 08:00-20:00", "Mon,,Tue 08:00-20:00", "Mon- 08:00-20:00",
        ] {
            #expect(throws: ScheduleArguments.Invalid.self, "\(bad)") { try ScheduleArguments.restriction(bad) }
        }
        let error = try #require(throws: ScheduleArguments.Invalid.self) {
            try ScheduleArguments.restriction("Mon+Tue 08:00-20:00")
        }
        #expect(
            error.description.contains("\"Mon+Tue\" is not a day"), "names the part it did not understand: \(error)")
    }

    @Test func clockTimesAreExactlyHoursAndMinutes() throws {
        #expect(try ScheduleArguments.restriction("Mon 09:00-24:00").end == 1440)
        for bad in [
            "Mon 9:00-17:00", "Mon 09:00-17:0", "Mon 09:00:30-17:00", "Mon 09:60-17:00", "Mon 24:01-01:00",
            "Mon 0٩:00-17:00",
        ] {
            #expect(throws: ScheduleArguments.Invalid.self, "\(bad)") { try ScheduleArguments.restriction(bad) }
        }
        #expect(RestrictionWindow.minuteOfDay("09:30:00") == 570, "imports write seconds, always zero")
    }

    @Test func daysOfTheMonthAndHolidaysReadBackAsWritten() throws {
        let first = try ScheduleArguments.restriction("first Monday of every second month 09:00-12:00")
        #expect(
            first.monthly == MonthlyDays(nth: 1, weekday: 2, everyMonths: 2) && first.start == 540 && first.end == 720)
        #expect(
            try ScheduleArguments.restriction("last Fri of every month 16:00-18:00").monthly
                == MonthlyDays(nth: -1, weekday: 6))
        #expect(
            try ScheduleArguments.restriction("day 15 of every 3 months 09:00-17:00").monthly
                == MonthlyDays(nth: 15, weekday: nil, everyMonths: 3))
        #expect(
            try ScheduleArguments.restriction("last day of every month 22:00-06:00").monthly
                == MonthlyDays(nth: -1, weekday: nil))
        let weekdays = try ScheduleArguments.restriction("Mon-Fri 09:00-17:00 except holidays:de-by")
        #expect(weekdays.exceptHolidays == "de-by" && weekdays.weekdays == Set(2...6))
        #expect(ScheduleArguments.text(first) == "first Mon of every 2 months 09:00-12:00")
        for text in [
            "first Mon of every 2 months 09:00-12:00", "last Fri of every month 16:00-18:00 except holidays:uk",
            "day 15 of every 3 months 09:00-17:00", "Mon-Fri 09:00-17:00 except holidays:de-by",
        ] {
            let window = try ScheduleArguments.restriction(text)
            #expect(try ScheduleArguments.restriction(ScheduleArguments.text(window)) == window, "reads back: \(text)")
        }
        for bad in [
            "first Moonday of every month 09:00-12:00", "first Monday every month 09:00-12:00",
            "sixth Monday of every month 09:00-12:00",
            "first Monday of every 13 months 09:00-12:00", "Mon-Fri 09:00-17:00 except Christmas",
            "Mon-Fri 09:00-17:00 except holidays:a b",
        ] {
            #expect(throws: ScheduleArguments.Invalid.self, "\(bad)") { try ScheduleArguments.restriction(bad) }
        }
    }

    @Test func peopleHaveNoEmptySlotOrName() throws {
        #expect(
            try ScheduleArguments.people("Ada Lovelace+Alan Turing, Grace Hopper") == [
                ["Ada Lovelace", "Alan Turing"], ["Grace Hopper"],
            ])
        for bad in ["Ada Lovelace,,Alan Turing", "Ada Lovelace,", ",Ada", "Ada+", "Ada+ +Alan", "", " "] {
            let error = try #require(throws: ScheduleArguments.Invalid.self, "\(bad)") {
                try ScheduleArguments.people(bad)
            }
            #expect(error.description.contains("empty name"))
        }
    }
}
