import Foundation
import RosterDomain

extension MigrationBuilder {
    static let grafanaWeekdays = ["SU": 1, "MO": 2, "TU": 3, "WE": 4, "TH": 5, "FR": 6, "SA": 7]

    /// A rolling-users (or recurrent, or single) shift as a rotation, read as Grafana OnCall's
    /// own shift tests say it runs (engine/apps/schedules/tests/custom_shift_test_cases.py):
    /// each event from the shift's time of day for `duration`, on the days of `by_day`;
    /// `daily`: each group holds `interval` of the active days in turn (a weekend outside
    /// `by_day` is not counted); `weekly`: a group a week from `week_start`, and with an
    /// `interval` of k the next group k weeks later, the weeks between empty; `monthly`: a group
    /// a calendar month, likewise. Anything else is reported, not mapped.
    mutating func grafanaRotation(_ shift: SourceJSON, zone: String, clock: WallClock) -> Rotation? {
        let before = reading.problems.count
        let shiftID = reading.text(shift, "id") ?? ""
        let type = reading.optionalText(shift, "type")
        let shiftZone = shift["time_zone"]?.string
        let local = shiftZone.flatMap(WallClock.init(zone:)) ?? clock
        if let shiftZone, WallClock(zone: shiftZone) == nil {
            reading.refuse(shift, "time_zone", "\"\(shiftZone)\" is not a zone in Roster's time zone database")
        }
        let start = grafanaInstant(shift, "start", zone: local)
        let duration = reading.integer(shift, "duration", in: 60...31_536_000)
        let until = grafanaInstant(shift, "until", zone: local, required: false)
        var groups: [[String]] = []
        let lists: [SourceJSON] =
            type == "rolling_users" ? reading.list(shift, "rolling_users") : [shift["users"]].compactMap { $0 }
        for list in lists {
            var group: [String] = []
            for user in list.elements ?? [] {
                guard let userID = user.string, let person = personIDs[userID] else {
                    reading.refuse(user, "", "is not one of the export's users")
                    continue
                }
                group.append(person)
            }
            groups.append(group)
        }
        var days: Set<Int>?
        if let byDay = shift["by_day"]?.elements {
            days = Set(byDay.compactMap { $0.string.flatMap { Self.grafanaWeekdays[$0] } })
            if days?.count != byDay.count { reading.refuse(shift, "by_day", "is not a list of days such as MO, TU") }
        }
        guard reading.problems.count == before, let start, let duration else { return nil }
        guard ["rolling_users", "recurrent_event", "single_event"].contains(type) else {
            reading.refuse(shift, "type", "\"\(type)\" is not rolling_users, recurrent_event, single_event or override")
            return nil
        }
        if let shiftZone, shiftZone != zone, Self.offsetsDiffer(shiftZone, zone, from: start) {
            reading.report.add(
                .changed, SourceReading.path(shift, "time_zone"),
                "repeats on \(shiftZone)'s clock; Roster keeps it on its schedule's (\(zone)), an hour apart between "
                    + "the two zones' daylight-saving changes")
        }
        if shift["by_month"] != nil || shift["by_monthday"] != nil {
            return notMapped(shift, "by_month and by_monthday are not read by Roster's rotations")
        }
        guard duration % 60 == 0, start % 60_000 == 0 else {
            reading.refuse(shift, "duration", "is not a whole minute")
            return nil
        }
        let handoff = clock.local(start)
        let minute = handoff.hour * 60 + handoff.minute
        let frequency = shift["frequency"]?.string ?? ""
        let interval = max(1, shift["interval"]?.integer ?? 1)
        let offset = shift["start_rotation_from_user_index"]?.integer ?? 0
        // One event a day (or on the start's weekday): its window; a whole day or more needs none.
        func windows(_ weekdays: Set<Int>?) -> [RestrictionWindow]? {
            guard duration < 86_400 || weekdays != nil else { return duration == 86_400 ? [] : nil }
            guard duration <= 86_400 else { return nil }
            let end = (minute + duration / 60) % 1_440
            return [RestrictionWindow(weekdays: weekdays ?? Set(1...7), start: minute, end: end)]
        }
        var rotation = Rotation(
            id: id(shiftID), slots: [], cadence: .days(1), handoff: handoff, end: until, advance: .calendar)
        switch (type, frequency) {
        case ("single_event", _), (_, ""):
            rotation.slots = [groups.flatMap { $0 }]
            rotation.cadence = .minutes(duration / 60)
            rotation.end = start + UnixMillis(duration) * 1_000
        case (_, "daily"):
            guard let restrictions = windows(days) else {
                return notMapped(shift, "a daily event longer than a day is not a Roster rotation")
            }
            rotation.restrictions = restrictions
            rotation.slots = groups.flatMap { Array(repeating: $0, count: interval) }
            rotation.advance = days == nil ? .calendar : .activeTurns
            rotation.slotOffset = offset * interval
        case (_, "weekly"), (_, "monthly"):
            let weekly = frequency == "weekly"
            guard weekly || days != nil else {
                return notMapped(shift, "a monthly event on a day of the month is not read yet")
            }
            let weekday = clock.weekday(of: WallClock.Day(year: handoff.year, month: handoff.month, day: handoff.day))
            if weekly, days == nil {
                // One event a week from the start (up to the whole week): the turns follow the
                // start's weekday, as Grafana's next event does without by_day.
                guard duration <= 604_800 else {
                    return notMapped(shift, "a weekly event longer than a week is not read yet")
                }
                rotation.restrictions =
                    duration == 604_800
                    ? []
                    : RosterImport.windows(
                        daily: false, isoWeekday: (weekday + 5) % 7 + 1, startMinute: minute, minutes: duration / 60)
                rotation.cadence = .weeks(1)
                rotation.slots = groups.flatMap { [$0] + Array(repeating: [], count: interval - 1) }
                rotation.slotOffset = offset * interval
                break
            }
            guard let restrictions = windows(days ?? [weekday]) else {
                return notMapped(shift, "an event longer than a day is not read yet")
            }
            rotation.restrictions = restrictions
            // The turn starts at the week's (or month's) first day, at the event's time of day.
            let day = WallClock.Day(year: handoff.year, month: handoff.month, day: handoff.day)
            let first: WallClock.Day
            if weekly {
                let weekStart = Self.grafanaWeekdays[shift["week_start"]?.string ?? "SU"] ?? 1
                first = clock.day(day, adding: -((weekday - weekStart + 7) % 7))
                rotation.cadence = .weeks(1)
                rotation.slots = groups.flatMap { [$0] + Array(repeating: [], count: interval - 1) }
                rotation.slotOffset = offset * interval
            } else {
                first = WallClock.Day(year: day.year, month: day.month, day: 1)
                rotation.cadence = .months(1)
                rotation.slots = groups.flatMap { [$0] + Array(repeating: [], count: interval - 1) }
                rotation.slotOffset = offset * interval
            }
            rotation.handoff = LocalDateTime(
                year: first.year, month: first.month, day: first.day, hour: handoff.hour, minute: handoff.minute)
            rotation.since = start
        default:
            return notMapped(shift, "a \(frequency.isEmpty ? "shift" : frequency) frequency is not read yet")
        }
        if let rotationStart = grafanaInstant(shift, "rotation_start", zone: local, required: false),
            rotationStart > start
        {
            rotation.since = rotationStart
            reading.report.add(
                .changed, SourceReading.path(shift, "rotation_start"),
                "events before the rotation's start are left out from \(TimeText.iso8601(rotationStart))")
        }
        return rotation
    }

    private mutating func notMapped(_ shift: SourceJSON, _ why: String) -> Rotation? {
        reading.report.add(.notMapped, shift.path, why + ": the shift is left out; add it after the apply")
        return nil
    }
}
