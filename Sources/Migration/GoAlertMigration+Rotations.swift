import Foundation
import RosterDomain

extension MigrationBuilder {
    /// A GoAlert rotation as a Roster rotation on one schedule: handoffs from its `start` every
    /// `shiftLength` hours, days or weeks on the wall clock (GoAlert's `Rotation.EndTime`), its
    /// participants in order, the one at `activeUserIndex` holding the turn under way at
    /// `exportedAt`. GoAlert keeps the rotation's position as state, advanced at each handoff
    /// made: the rotation starts at that turn with that person, and without rules it counts only
    /// the turns that happen (active turns), so a handoff in the hour skipped in spring moves
    /// nobody, as in GoAlert.
    mutating func goAlertRotation(
        _ node: SourceJSON, restrictions: [RestrictionWindow], scheduleClock clock: WallClock,
        exportedAt: UnixMillis, id: String
    ) -> Rotation? {
        let before = reading.problems.count
        let type = reading.optionalText(node, "type")
        let length = reading.integer(node, "shiftLength", in: 1...9_000)
        let start = reading.instant(node, "start")
        let zone = reading.optionalText(node, "timeZone")
        var slots: [[String]] = []
        let participants = reading.list(node, "userIDs")
        for participant in participants {
            guard let userID = participant.string, let person = personIDs[userID] else {
                reading.refuse(participant, "", "is not one of the export's users")
                continue
            }
            slots.append([person])
        }
        let active = node["activeUserIndex"]?.integer ?? 0
        guard reading.problems.count == before, let length, let start else { return nil }
        let cadence: Cadence
        switch type {
        case "weekly": cadence = .weeks(length)
        case "daily": cadence = .days(length)
        case "hourly": cadence = .hours(length)
        default:
            reading.refuse(node, "type", "\"\(type)\" is not weekly, daily or hourly")
            return nil
        }
        guard slots.isEmpty || (0..<slots.count).contains(active) else {
            reading.refuse(node, "activeUserIndex", "is not the index of one of its \(slots.count) participants")
            return nil
        }
        guard start % 60_000 == 0 else {
            reading.refuse(node, "start", "is not a whole minute: Roster's handoffs are")
            return nil
        }
        if !zone.isEmpty, zone != clock.zoneIdentifier, Self.offsetsDiffer(zone, clock.zoneIdentifier, from: exportedAt)
        {
            reading.report.add(
                .changed, SourceReading.path(node, "timeZone"),
                "hands off on \(zone)'s clock; its schedule is in \(clock.zoneIdentifier), whose offset from it "
                    + "changes during the year: Roster keeps the handoffs at \(clock.local(start))'s local time in "
                    + "\(clock.zoneIdentifier), an hour from GoAlert's between the two zones' daylight-saving changes")
        }
        if case .hours = cadence, !restrictions.isEmpty, clock.nextTransition(after: exportedAt) != nil {
            reading.report.add(
                .changed, SourceReading.path(node, "type"),
                "hourly turns are counted on the wall clock from the start, as in GoAlert; a handoff that falls in "
                    + "the hour skipped in spring is not made in Roster (GoAlert makes it an hour later and keeps that "
                    + "minute from then on): compare with --verify-against over such a change")
        }
        var rotation = Rotation(
            id: id, slots: slots, cadence: cadence, handoff: clock.local(start), restrictions: restrictions,
            advance: restrictions.isEmpty ? .activeTurns : .calendar)
        // From the turn under way at the export, its person first.
        rotation.handoff = clock.local(Self.turnStart(of: rotation, at: exportedAt, clock: clock))
        rotation.slotOffset = active
        reading.report.add(
            .exact, node.path,
            "continues from its shift under way at the export (from \(rotation.handoff) in \(clock.zoneIdentifier)) "
                + "with participant \(active + 1) of \(slots.count); GoAlert's shifts before it are its history, not "
                + "its rules, and are not migrated")
        return rotation
    }

    /// The start of the turn under way at `instant` (the first handoff before it starts).
    static func turnStart(of rotation: Rotation, at instant: UnixMillis, clock: WallClock) -> UnixMillis {
        let anchor = WallClock.Day(
            year: rotation.handoff.year, month: rotation.handoff.month, day: rotation.handoff.day)
        let minute = rotation.handoff.hour * 60 + rotation.handoff.minute
        func handoff(_ k: Int) -> UnixMillis {
            switch rotation.cadence {
            case .days(let n): return clock.instant(clock.day(anchor, adding: k * n), minuteOfDay: minute)
            case .weeks(let n): return clock.instant(clock.day(anchor, adding: k * n * 7), minuteOfDay: minute)
            case .hours(let n):
                let total = minute + k * n * 60
                let days = total >= 0 ? total / 1440 : (total - 1439) / 1440
                return clock.instant(clock.day(anchor, adding: days), minuteOfDay: total - days * 1440)
            default: return .max
            }
        }
        let step: UnixMillis =
            switch rotation.cadence {
            case .days(let n): UnixMillis(n) * 86_400_000
            case .weeks(let n): UnixMillis(n) * 604_800_000
            case .hours(let n): UnixMillis(n) * 3_600_000
            default: 1
            }
        guard instant >= handoff(0) else { return handoff(0) }
        // An estimate from the length, then the exact turn by the wall clock.
        var k = Int((instant - handoff(0)) / step)
        while k > 0, handoff(k) > instant { k -= 1 }
        while handoff(k + 1) <= instant { k += 1 }
        return handoff(k)
    }

    /// Whether two zones' offsets from UTC differ by different amounts within a year of `from`.
    static func offsetsDiffer(_ one: String, _ other: String, from: UnixMillis) -> Bool {
        guard let a = TimeZone(identifier: one), let b = TimeZone(identifier: other) else { return true }
        let differences = Set(
            stride(from: 0, to: 366, by: 7).map { day -> Int in
                let date = Date(timeIntervalSince1970: Double(from) / 1000 + Double(day) * 86_400)
                return a.secondsFromGMT(for: date) - b.secondsFromGMT(for: date)
            })
        return differences.count > 1
    }
}
