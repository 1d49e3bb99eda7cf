import RosterDomain
import Testing

/// The one place that decides when who is on duty changes: boundaries (on time, late, early),
/// admin changes, deleted schedules, and the handoffs webhook notices are written from.
@Suite(.timeLimit(.minutes(10))) struct OnDutyTrackerTests {
    static let hour: UnixMillis = 3_600_000
    static let day: UnixMillis = 24 * hour
    /// Monday 2026-03-23 09:00 in Berlin (CET, 08:00 UTC); the clocks go forward on the 29th.
    static let monday: UnixMillis = 1_774_252_800_000
    static let people = ["ada", "alan", "grace"].map {
        Employee(id: $0, firstName: $0.capitalized, lastName: $0.capitalized)
    }

    /// A daily rotation of ada, alan, grace handing off at 09:00 Berlin time from `monday`.
    static func state(cadence: Cadence = .days(1)) -> RosterState {
        let schedule = ScheduleDefinition(
            id: "p", name: "Platform", zone: "Europe/Berlin",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["ada"], ["alan"], ["grace"]], cadence: cadence,
                            handoff: LocalDateTime(year: 2026, month: 3, day: 23, hour: 9))
                    ])
            ])
        return RosterState(tenant: Tenant(id: "t", name: "T"), employees: people, schedules: [schedule])
    }

    @Test func aBoundaryIsAnnouncedAtTheHandoffAndNotBefore() throws {
        let state = Self.state()
        var tracker = OnDutyTracker(state: state, at: Self.monday + Self.hour)
        #expect(tracker.announced["p"]?.currentEmployeeIDs == ["ada"])
        let handoff = Self.monday + Self.day
        #expect(tracker.nextLook == handoff)
        // An early alarm finds nothing due, and a look then changes nothing.
        #expect(tracker.due(at: handoff - 1).isEmpty)
        #expect(tracker.look(at: handoff - 1, cause: .boundary, schedules: ["p"], in: state).isEmpty)

        #expect(tracker.due(at: handoff) == ["p"])
        let changes = tracker.look(at: handoff, cause: .boundary, schedules: ["p"], in: state)
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.cause == .boundary && change.at == handoff && change.scheduleID == "p")
        #expect(change.previous.currentEmployeeIDs == ["ada"] && change.current.currentEmployeeIDs == ["alan"])
        #expect(change.current.until == handoff + Self.day && change.current.next.map(\.employeeID) == ["grace"])
        #expect(tracker.nextLook == handoff + Self.day)
    }

    @Test func aLateLookStatesTheLastHandoffNotTheInstantItWoke() throws {
        let state = Self.state()
        var tracker = OnDutyTracker(state: state, at: Self.monday)
        // Woken two and a half days late: the set at the last handoff before then (grace's, Wednesday).
        let woke = Self.monday + 2 * Self.day + 12 * Self.hour
        let change = try #require(tracker.look(at: woke, cause: .boundary, schedules: ["p"], in: state).first)
        #expect(change.at == Self.monday + 2 * Self.day)
        #expect(change.current.currentEmployeeIDs == ["grace"] && change.previous.currentEmployeeIDs == ["ada"])
        // Any other cause states the instant itself.
        var other = OnDutyTracker(state: state, at: Self.monday)
        let jump = try #require(other.look(at: woke, cause: .clockJump, schedules: ["p"], in: state).first)
        #expect(jump.at == woke && jump.cause == .clockJump && jump.current.currentEmployeeIDs == ["grace"])
    }

    @Test func theSamePersonBackToBackIsNoChangeButTheirNewEndIsKept() throws {
        let start = Self.monday
        var state = RosterState(tenant: Tenant(id: "t", name: "T"), employees: Self.people)
        state.apply(.shiftAdded(Shift(id: "s1", employeeID: "ada", start: start, end: start + 8 * Self.hour)))
        var tracker = OnDutyTracker(state: state, at: start + Self.hour)
        #expect(tracker.announced["default"]?.until == start + 8 * Self.hour)
        // Her shift continues in a second one: the set does not change, but "until" moves.
        var after = state
        after.apply(
            .shiftAdded(Shift(id: "s2", employeeID: "ada", start: start + 8 * Self.hour, end: start + 16 * Self.hour)))
        tracker.reindex(["default"], in: after, at: start + 2 * Self.hour)
        #expect(tracker.look(at: start + 2 * Self.hour, cause: .planChanged, schedules: ["default"], in: after).isEmpty)
        #expect(tracker.announced["default"]?.until == start + 16 * Self.hour)
        #expect(tracker.due(at: start + 8 * Self.hour).isEmpty, "no look is due where nobody changes")
    }

    @Test func anAdminChangeAndADeletedScheduleAreAnnounced() throws {
        let state = Self.state()
        let now = Self.monday + Self.hour
        var tracker = OnDutyTracker(state: state, at: now)
        var covered = state
        var definition = try #require(covered.schedules["p"])
        definition.overrides = [
            ScheduleOverride(id: "o", kind: .replace(replacing: "ada", with: "grace"), start: now, end: now + Self.hour)
        ]
        covered.apply(.scheduleUpserted(definition))
        tracker.reindex(["p"], in: covered, at: now)
        let change = try #require(tracker.look(at: now, cause: .planChanged, schedules: ["p"], in: covered).first)
        #expect(change.cause == .planChanged && change.at == now)
        #expect(change.previous.currentEmployeeIDs == ["ada"] && change.current.currentEmployeeIDs == ["grace"])
        // What webhook notices ask gives the same change.
        let notice = OnDutyTracker.change(
            scheduleID: "p", before: state.onDutyIndex(of: "p", around: now),
            after: covered.onDutyIndex(of: "p", around: now), at: now)
        #expect(notice == change)

        var deleted = covered
        deleted.apply(.scheduleDeleted(id: "p"))
        tracker.reindex(["p"], in: deleted, at: now)
        let gone = try #require(tracker.look(at: now, cause: .planChanged, schedules: ["p"], in: deleted).first)
        #expect(gone.current.current.isEmpty && gone.previous.currentEmployeeIDs == ["grace"])
        #expect(tracker.announced["p"] == nil && tracker.indexes["p"] == nil)
        #expect(tracker.look(at: now + 1, cause: .planChanged, schedules: ["p"], in: deleted).isEmpty, "nobody, once")
    }

    /// Pushes come from the alarm, notices from `handoffs`: over three weeks that cross the DST
    /// change they name the same instants and the same people.
    @Test func pushesAndNoticesAgreeAcrossADaylightSavingChange() throws {
        let state = Self.state()
        let from = Self.monday + Self.hour, to = from + 21 * Self.day
        var tracker = OnDutyTracker(state: state, at: from)
        var pushed: [OnDutyChange] = []
        while let next = tracker.nextLook, next < to {
            pushed += tracker.look(at: next, cause: .boundary, schedules: tracker.due(at: next), in: state)
        }
        let index = try #require(state.onDutyIndex(of: "p", around: from))
        let noticed = OnDutyTracker.handoffs(scheduleID: "p", in: index, from: from, to: to)
        #expect(pushed.count == 21)
        #expect(pushed.map(\.at) == noticed.map(\.at))
        #expect(pushed.map(\.current.currentEmployeeIDs) == noticed.map(\.current.currentEmployeeIDs))
        #expect(noticed.allSatisfy { $0.cause == .boundary && $0.cause.noticeName == "handoff" })
        // 09:00 in Berlin is 08:00 UTC until the 29th and 07:00 UTC from the 30th.
        let gaps = Set(zip(pushed, pushed.dropFirst()).map { $1.at - $0.at })
        #expect(gaps == [Self.day, Self.day - Self.hour])
        #expect(
            pushed.first { $0.at > Self.monday + 7 * Self.day }?.at == Self.monday + 7 * Self.day - Self.hour + Self.day
        )
    }

    @Test func aHandoffAtTheWindowsStartCountsAndCausesHaveNoticeNames() throws {
        let state = Self.state()
        let index = try #require(state.onDutyIndex(of: "p", around: Self.monday))
        let handoffs = OnDutyTracker.handoffs(
            scheduleID: "p", in: index, from: Self.monday + Self.day, to: Self.monday + 2 * Self.day)
        #expect(handoffs.map(\.at) == [Self.monday + Self.day])
        #expect(OnDutyCause.allCases.map(\.noticeName) == ["initial", "handoff", "plan-changed", "clock-jump"])
    }
}
