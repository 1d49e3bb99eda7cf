import Foundation
import RosterDomain
@testable import RosterServer
@testable import RosterNotifications
@testable import RosterServerCore
import RosterStore
import Testing

/// The events derived from a plan: handoffs, reminders and gaps written ahead of time, and what
/// a change causes, on a Berlin schedule across the change to summer time (2027-03-28).
@Suite(.timeLimit(.minutes(10))) struct NoticeDerivationTests {
    static let hour: Int64 = 3_600_000

    static func instant(_ text: String) -> UnixMillis {
        UnixMillis(ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970 * 1000)
    }

    /// Weekly rotation of Ada and Alan, handing off Mondays 09:00 Berlin.
    static func berlin(shifts: [Shift] = []) -> RosterState {
        let rotation = Rotation(
            id: "r1", slots: [["ada"], ["alan"]], cadence: .weeks(1),
            handoff: LocalDateTime(year: 2027, month: 3, day: 1, hour: 9))
        let schedule = ScheduleDefinition(
            id: "primary", name: "Platform primary", zone: "Europe/Berlin",
            layers: [ScheduleLayer(level: 1, rotations: [rotation])])
        return RosterState(
            tenant: Tenant(id: "acme", name: "Acme"),
            employees: [
                Employee(id: "ada", firstName: "Ada", lastName: "Lovelace"),
                Employee(id: "alan", firstName: "Alan", lastName: "Turing"),
            ],
            shifts: shifts, schedules: [schedule])
    }

    static func data(_ event: NotificationEvent) -> [String: Any] {
        let envelope = try! JSONSerialization.jsonObject(with: event.payload) as! [String: Any]
        return envelope["data"] as! [String: Any]
    }

    let derivation = NoticeDerivation(tenantID: "acme", settings: ServerConfiguration.NotificationSettings())

    @Test func handoffsAreWrittenAtTheirInstantAcrossTheChangeToSummerTime() {
        let events = derivation.planned(
            state: Self.berlin(), revision: 7, from: Self.instant("2027-03-20T00:00:00Z"),
            to: Self.instant("2027-04-06T00:00:00Z"), rules: [], wanted: [.onDutyChanged], schedules: nil)
        #expect(
            events.map(\.due)
                == ["2027-03-22T08:00:00Z", "2027-03-29T07:00:00Z", "2027-04-05T07:00:00Z"].map(Self.instant))
        #expect(
            events.allSatisfy {
                $0.type == .onDutyChanged && $0.planned && $0.revision == 7 && $0.scheduleIDs == ["primary"]
            })
        let first = Self.data(events[0])
        #expect((first["previous"] as? [[String: Any]])?.first?["name"] as? String == "Ada Lovelace")
        #expect((first["current"] as? [[String: Any]])?.first?["name"] as? String == "Alan Turing")
        #expect(first["until"] as? String == "2027-03-29T07:00:00Z")
        #expect(first["cause"] as? String == "handoff")
        // The same window derived again gives the same ids: the outbox stores each once.
        let again = derivation.planned(
            state: Self.berlin(), revision: 8, from: Self.instant("2027-03-20T00:00:00Z"),
            to: Self.instant("2027-04-06T00:00:00Z"), rules: [], wanted: [.onDutyChanged], schedules: nil)
        #expect(again.map(\.id) == events.map(\.id))
        // Windows that meet at a handoff see it once.
        let split = Self.instant("2027-03-29T07:00:00Z")
        let before = derivation.planned(
            state: Self.berlin(), revision: 7, from: Self.instant("2027-03-20T00:00:00Z"), to: split,
            rules: [], wanted: [.onDutyChanged], schedules: nil)
        let after = derivation.planned(
            state: Self.berlin(), revision: 7, from: split, to: Self.instant("2027-04-06T00:00:00Z"),
            rules: [], wanted: [.onDutyChanged], schedules: nil)
        #expect((before + after).map(\.id) == events.map(\.id))
    }

    @Test func remindersComeAtTheirLeadAndAtLocalTimeTheEveningBefore() {
        let rules = [
            ReminderRule(id: "lead", timing: .lead(minutes: 15)),
            ReminderRule(id: "evening", scheduleID: "primary", timing: .daysBefore(days: 1, minuteOfDay: 18 * 60)),
        ]
        let events = derivation.planned(
            state: Self.berlin(), revision: 7, from: Self.instant("2027-03-20T00:00:00Z"),
            to: Self.instant("2027-04-06T00:00:00Z"), rules: rules, wanted: [.shiftStarting], schedules: nil)
        let byRule = Dictionary(grouping: events) { (Self.data($0)["reminder"] as? String) ?? "" }
        // 15 minutes before 09:00 Berlin: 07:45Z in winter, 06:45Z in summer.
        #expect(
            byRule["15m before"]?.map(\.due).sorted()
                == ["2027-03-22T07:45:00Z", "2027-03-29T06:45:00Z", "2027-04-05T06:45:00Z"].map(Self.instant))
        // 18:00 Berlin the day before: 17:00Z on 03-21 (CET); 16:00Z on 03-28, the day the clocks change.
        #expect(
            byRule["1 day before at 18:00"]?.map(\.due).sorted()
                == ["2027-03-21T17:00:00Z", "2027-03-28T16:00:00Z", "2027-04-04T16:00:00Z"].map(Self.instant))
        let first = events.min { $0.due < $1.due }!
        #expect(first.about == Self.instant("2027-03-22T08:00:00Z"))
        #expect(first.people == ["alan"])
        #expect((Self.data(first)["person"] as? [String: Any])?["name"] as? String == "Alan Turing")
        // A rule for one person leaves the others' shifts alone.
        let adaOnly = derivation.planned(
            state: Self.berlin(), revision: 7, from: Self.instant("2027-03-20T00:00:00Z"),
            to: Self.instant("2027-04-06T00:00:00Z"),
            rules: [ReminderRule(id: "ada", personID: "ada", timing: .lead(minutes: 15))],
            wanted: [.shiftStarting], schedules: nil)
        #expect(adaOnly.map(\.due) == [Self.instant("2027-03-29T06:45:00Z")])
    }

    @Test func aChangeAnnouncesTheOnDutySetItAlteredTheShiftsPeopleGainedAndLostAndTheGapItOpened() {
        let now = Self.instant("2027-03-23T12:00:00Z")
        let previous = Self.berlin(shifts: [
            Shift(id: "s1", employeeID: "ada", start: now + 1 * Self.hour, end: now + 5 * Self.hour),
            Shift(id: "s2", employeeID: "alan", start: now + 5 * Self.hour, end: now + 9 * Self.hour),
        ])
        // s1 moves later (Ada's shift moved) and Alan gains s3 from an hour ago: he is on duty
        // now, and nobody is from when s3 ends until s1 begins.
        let current = Self.berlin(shifts: [
            Shift(id: "s1", employeeID: "ada", start: now + 3 * Self.hour, end: now + 5 * Self.hour),
            Shift(id: "s2", employeeID: "alan", start: now + 5 * Self.hour, end: now + 9 * Self.hour),
            Shift(id: "s3", employeeID: "alan", start: now - Self.hour, end: now + Self.hour),
        ])
        let events = derivation.afterChange(
            previous: previous, current: current, schedules: [ScheduleDefinition.defaultID],
            revision: 12, now: now, actor: "ops token", wanted: Set(NotificationType.allCases))
        let onDuty = events.filter { $0.type == .onDutyChanged }
        #expect(onDuty.count == 1)
        #expect((Self.data(onDuty[0])["current"] as? [[String: Any]])?.first?["id"] as? String == "alan")
        #expect(Self.data(onDuty[0])["cause"] as? String == "plan-changed")
        let changed = Dictionary(
            uniqueKeysWithValues: events.filter { $0.type == .shiftsChanged }.map { ($0.people[0], Self.data($0)) })
        #expect(Set(changed.keys) == ["ada", "alan"])
        #expect((changed["ada"]?["moved"] as? [[String: Any]])?.count == 1)
        #expect(
            ((changed["ada"]?["moved"] as? [[String: Any]])?.first?["previously"] as? [String: Any])?["start_ms"]
                as? Int64
                == now + Self.hour)
        #expect((changed["alan"]?["gained"] as? [[String: Any]])?.count == 1)
        #expect(changed["alan"]?["by"] as? String == "ops token")
        let gaps = events.filter { $0.type == .coverageGap }.map(Self.data)
        #expect(gaps.count == 1)
        #expect(gaps.first?["start_ms"] as? Int64 == now + Self.hour)
        #expect(gaps.first?["end_ms"] as? Int64 == now + 3 * Self.hour)
        #expect(events.allSatisfy { !$0.planned && $0.revision == 12 && $0.due == now })
    }

    @Test func aGapIsAnnouncedWhenItComesWithinTheWindow() {
        let start = Self.instant("2027-04-01T10:00:00Z")
        let state = Self.berlin(shifts: [
            Shift(id: "s1", employeeID: "ada", start: start - 250 * Self.hour, end: start),
            Shift(id: "s2", employeeID: "alan", start: start + 2 * Self.hour, end: start + 10 * Self.hour),
        ])
        let sevenDays = 7 * 24 * Self.hour
        let events = derivation.planned(
            state: state, revision: 3, from: start - sevenDays - Self.hour, to: start - sevenDays + Self.hour,
            rules: [], wanted: [.coverageGap], schedules: [ScheduleDefinition.defaultID])
        #expect(events.count == 1)
        #expect(events.first?.due == start - sevenDays)
        #expect(events.first?.about == start)
        #expect(Self.data(events[0])["end_ms"] as? Int64 == start + 2 * Self.hour)
    }

    @Test func businessHourGapsAreAnnouncedAWeekAheadAtTheirLocalTimeAcrossTheChange() {
        // Weekdays 09:00-17:00 Berlin: nobody from 17:00 to 09:00 and over the weekend.
        let rotation = Rotation(
            id: "r1", slots: [["ada"], ["alan"]], cadence: .weeks(1),
            handoff: LocalDateTime(year: 2027, month: 3, day: 1, hour: 9),
            restrictions: [RestrictionWindow(weekdays: Set(2...6), start: 9 * 60, end: 17 * 60)])
        let schedule = ScheduleDefinition(
            id: "support", name: "Support", zone: "Europe/Berlin",
            layers: [ScheduleLayer(level: 1, rotations: [rotation])])
        let state = RosterState(
            tenant: Tenant(id: "acme", name: "Acme"),
            employees: [
                Employee(id: "ada", firstName: "Ada", lastName: "Lovelace"),
                Employee(id: "alan", firstName: "Alan", lastName: "Turing"),
            ],
            schedules: [schedule])
        // Gaps starting 2027-03-25 to 03-31 are announced a week before, 03-18 to 03-24.
        let events = derivation.planned(
            state: state, revision: 2, from: Self.instant("2027-03-18T00:00:00Z"),
            to: Self.instant("2027-03-24T00:00:00Z"), rules: [], wanted: [.coverageGap],
            schedules: ["support"])
        // 17:00 Berlin: 16:00Z before the change (Thu 25th, Fri 26th: into the weekend), 15:00Z after (Mon 29th, Tue 30th).
        #expect(
            events.map(\.about)
                == [
                    "2027-03-25T16:00:00Z", "2027-03-26T16:00:00Z", "2027-03-29T15:00:00Z",
                    "2027-03-30T15:00:00Z",
                ].map(Self.instant))
        #expect(events.map(\.due) == events.map { $0.about - 7 * 24 * Self.hour })
        // The weekend gap ends Monday 09:00 CEST (07:00Z); Thursday's ends Friday 09:00 CET (08:00Z).
        #expect(Self.data(events[1])["end"] as? String == "2027-03-29T07:00:00Z")
        #expect(Self.data(events[0])["end"] as? String == "2027-03-26T08:00:00Z")
    }

    @Test func timestampsKeepEveryMillisecond() {
        #expect(Timestamp.iso8601(1_795_469_051_392) == "2026-11-23T21:24:11.392Z")
        #expect(Timestamp.iso8601(1_795_469_051_000) == "2026-11-23T21:24:11Z")
        #expect(Timestamp.iso8601(1_795_469_051_007) == "2026-11-23T21:24:11.007Z")
    }
}
