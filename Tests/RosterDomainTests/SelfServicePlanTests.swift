import RosterDomain
import Testing

/// The self-service rules as a pure plan (docs/PROTOCOL.md "Self-service", §14.6): domain records
/// in, a schedule's next definition or a typed refusal out. Who wins a cover-request race: a
/// change is planned against the state its tenant's queue hands it (`MutationQueue`, one change
/// at a time), and a take of a request that is no longer open is refused, so of two takers the
/// one planned first wins and the other is told by whom it was taken. (SelfServiceTests runs the
/// same race over two real connections; MultiNodeTests across two nodes.)
@Suite(.timeLimit(.minutes(10))) struct SelfServicePlanTests {
    static let hour: UnixMillis = 3_600_000
    static let day: UnixMillis = 86_400_000
    static let now: UnixMillis = 1_795_996_800_000  // Monday 2026-11-30 00:00 UTC

    /// Ada, Alan and Grace take daily turns from now (Ada today, Alan tomorrow, Grace the day
    /// after); Linus is in the directory but not in the schedule. Grace has asked for cover of her
    /// turn.
    static func state(_ change: (inout ScheduleDefinition) -> Void = { _ in }) -> RosterState {
        let people = [
            Employee(id: "ada", firstName: "Ada", lastName: "Lovelace"),
            Employee(id: "alan", firstName: "Alan", lastName: "Turing"),
            Employee(id: "grace", firstName: "Grace", lastName: "Hopper"),
            Employee(id: "linus", firstName: "Linus", lastName: "Pauling"),
        ]
        let request = CoverRequest(
            id: "req_1", requester: "grace", start: now + 2 * day, end: now + 3 * day, opened: now - day)
        var schedule = ScheduleDefinition(
            id: "p", name: "Platform", zone: "UTC",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["ada"], ["alan"], ["grace"]], cadence: .days(1),
                            handoff: LocalDateTime(year: 2026, month: 11, day: 30))
                    ])
            ], requests: [request])
        change(&schedule)
        return RosterState(tenant: Tenant(id: "acme", name: "Acme"), employees: people, schedules: [schedule])
    }

    static func person(_ id: String) -> Caller { Caller(tokenID: "t-\(id)", name: id, isAdmin: false, employeeID: id) }
    static let admin = Caller(tokenID: "t-admin", name: "ops", isAdmin: true)

    static func plan(
        _ edit: ScheduleChangeRequest.Edit, by caller: Caller, in state: RosterState, schedule: String = "p",
        at instant: UnixMillis = now
    ) throws(RosterError) -> SelfService.Planned {
        try SelfService.plan(
            ScheduleChangeRequest(schedule: schedule, edit: edit), actor: caller, state: state, now: instant,
            newID: { "\($0)_\(caller.name)" })
    }

    static func cover(
        _ action: ScheduleChangeRequest.CoverEdit.Action, by id: String,
        in state: RosterState
    ) throws(RosterError) -> SelfService.Planned {
        try plan(.cover(.init(action: action, requestID: "req_1")), by: person(id), in: state)
    }

    /// Who is on duty at `instant` once `planned` is committed.
    static func onDuty(_ planned: SelfService.Planned, at instant: UnixMillis) throws -> [String] {
        try ScheduleResolver.resolve(planned.after, from: instant, to: instant + 1).map(\.employeeID).sorted()
    }

    @Test func theFirstTakerPlannedWinsAndTheSecondIsToldByWhom() throws {
        var state = Self.state()
        // Alone, either could take it.
        #expect(
            (try? Self.cover(.take, by: "ada", in: state)) != nil
                && (try? Self.cover(.take, by: "alan", in: state)) != nil)
        // In the queue's order: Ada's change commits, then Alan's is planned against its result.
        let first = try Self.cover(.take, by: "ada", in: state)
        state.apply(.scheduleUpserted(first.after))
        #expect(first.after.requests.first?.stored == .taken && first.after.requests.first?.taker == "ada")
        #expect(first.after.overrides.map(\.kind) == [.replace(replacing: "grace", with: "ada")])
        #expect(throws: RosterError.notNow("request req_1 is already taken by Ada Lovelace")) {
            try Self.cover(.take, by: "alan", in: state)
        }
    }

    @Test func aTakePutsThePersonOnAndStepsEveryoneElseAside() throws {
        let take = ScheduleChangeRequest.TakeDuty(
            start: Self.now + 2 * Self.hour, end: Self.now + 5 * Self.hour, reason: "swap day")
        let planned = try Self.plan(.takeDuty(take), by: Self.person("alan"), in: Self.state())
        #expect(try Self.onDuty(planned, at: Self.now + 3 * Self.hour) == ["alan"])
        #expect(try Self.onDuty(planned, at: Self.now + 6 * Self.hour) == ["ada"])
        #expect(
            planned.created == ["ovr_alan", "ovr_alan"] && planned.auditReason == "Alan Turing takes duty: swap day")
        // What is already theirs alone is not taken again.
        #expect(throws: RosterError.notNow("Ada Lovelace is already the only one on duty on \"Platform\" then")) {
            try Self.plan(.takeDuty(take), by: Self.person("ada"), in: Self.state())
        }
        // A stretch under way is taken from now; one that is over is refused.
        let late = try Self.plan(
            .takeDuty(take), by: Self.person("alan"), in: Self.state(), at: Self.now + 4 * Self.hour)
        #expect(late.after.overrides.allSatisfy { $0.start == Self.now + 4 * Self.hour })
        #expect(throws: RosterError.notNow("that stretch is over; a take starts now at the earliest")) {
            try Self.plan(.takeDuty(take), by: Self.person("alan"), in: Self.state(), at: Self.now + 5 * Self.hour)
        }
    }

    @Test func undoingATakeGivesTheStretchBackAndNothingTakenIsMissing() throws {
        let take = ScheduleChangeRequest.TakeDuty(start: Self.now + 2 * Self.hour, end: Self.now + 5 * Self.hour)
        var state = Self.state()
        state.apply(.scheduleUpserted(try Self.plan(.takeDuty(take), by: Self.person("alan"), in: state).after))
        var undo = take
        undo.undo = true
        let undone = try Self.plan(.takeDuty(undo), by: Self.person("alan"), in: state)
        #expect(undone.after.overrides.isEmpty)
        #expect(try Self.onDuty(undone, at: Self.now + 3 * Self.hour) == ["ada"])
        #expect(
            throws: RosterError.missing(
                "Grace Hopper took no duty on \"Platform\" that is still to come in that stretch")
        ) {
            try Self.plan(.takeDuty(undo), by: Self.person("grace"), in: state)
        }
    }

    @Test func whoMayActIsDecidedByTheScheduleAndTheToken() throws {
        let take = ScheduleChangeRequest.TakeDuty(
            start: Self.now + Self.day + Self.hour, end: Self.now + Self.day + 2 * Self.hour)
        #expect(throws: RosterError.denied("Linus Pauling does not take part in schedule \"Platform\"")) {
            try Self.plan(.takeDuty(take), by: Self.person("linus"), in: Self.state())
        }
        _ = try Self.plan(.takeDuty(take), by: Self.person("linus"), in: Self.state { $0.readersMayVolunteer = true })
        #expect(throws: RosterError.denied("self-service is off on schedule \"Platform\": ask an admin")) {
            try Self.plan(.takeDuty(take), by: Self.person("ada"), in: Self.state { $0.selfServiceOff = true })
        }
        var forAda = take
        forAda.person = "Ada Lovelace"
        #expect(
            throws: RosterError.denied("only an admin acts for someone else (--for); this token acts for Grace Hopper")
        ) {
            try Self.plan(.takeDuty(forAda), by: Self.person("grace"), in: Self.state())
        }
        // An admin acts for anyone, anywhere, and the audit log says so; an admin token alone names nobody.
        let planned = try Self.plan(.takeDuty(forAda), by: Self.admin, in: Self.state { $0.selfServiceOff = true })
        #expect(planned.auditReason == "Ada Lovelace (by ops, for them) takes duty")
        #expect(throws: RosterError.self) { try Self.plan(.takeDuty(take), by: Self.admin, in: Self.state()) }
    }

    @Test func aCoverRequestOpensOnlyOnOnesOwnDutyAndIsAskedOfThoseNamed() throws {
        let open = ScheduleChangeRequest.CoverEdit(
            action: .open, start: Self.now + Self.day, end: Self.now + 2 * Self.day,
            addressedTo: ["Grace Hopper", "alan"], note: "dentist")
        let planned = try Self.plan(.cover(open), by: Self.person("alan"), in: Self.state())
        let request = try #require(planned.after.requests.last)
        #expect(request.id == "req_alan" && request.requester == "alan" && request.addressedTo == ["grace"])
        #expect(planned.auditReason == "Alan Turing asks for cover (req_alan): dentist")
        #expect(throws: RosterError.self) { try Self.plan(.cover(open), by: Self.person("ada"), in: Self.state()) }
        var unknown = open
        unknown.addressedTo = ["nobody"]
        #expect(throws: RosterError.notFound("employee \"nobody\"", suggestions: [])) {
            try Self.plan(.cover(unknown), by: Self.person("alan"), in: Self.state())
        }
        // Addressed to Grace: Ada may not take it, Grace may.
        var state = Self.state()
        state.apply(.scheduleUpserted(planned.after))
        let take = ScheduleChangeRequest.CoverEdit(action: .take, requestID: "req_alan")
        #expect(throws: RosterError.denied("request req_alan is addressed to Grace Hopper, not Ada Lovelace")) {
            try Self.plan(.cover(take), by: Self.person("ada"), in: state)
        }
        #expect(try Self.plan(.cover(take), by: Self.person("grace"), in: state).after.overrides.count == 1)
    }

    @Test func cancelAndBackOutUndoTheTakeBeforeTheStretchAndNotAfter() throws {
        var state = Self.state()
        state.apply(.scheduleUpserted(try Self.cover(.take, by: "ada", in: state).after))
        #expect(throws: RosterError.denied("only Grace Hopper, who asked, may cancel request req_1")) {
            try Self.cover(.cancel, by: "alan", in: state)
        }
        #expect(throws: RosterError.denied("request req_1 was taken by Ada Lovelace, not Alan Turing")) {
            try Self.cover(.backOut, by: "alan", in: state)
        }
        let backedOut = try Self.cover(.backOut, by: "ada", in: state)
        #expect(backedOut.after.overrides.isEmpty && backedOut.after.requests.first?.stored == .open)
        #expect(backedOut.after.requests.first?.taker == nil)
        let cancelled = try Self.cover(.cancel, by: "grace", in: state)
        #expect(cancelled.after.overrides.isEmpty && cancelled.after.requests.first?.stored == .cancelled)
        // Once the stretch has begun the take stands.
        #expect(throws: RosterError.notNow("request req_1 has already started: it can no longer be backed out of")) {
            try Self.plan(
                .cover(.init(action: .backOut, requestID: "req_1")), by: Self.person("ada"), in: state,
                at: Self.now + 2 * Self.day + Self.hour)
        }
    }

    @Test func aDeclineIsRecordedOnceAndAnUnknownActionIsInvalid() throws {
        var state = Self.state()
        state.apply(.scheduleUpserted(try Self.cover(.decline, by: "alan", in: state).after))
        #expect(state.schedules["p"]?.requests.first?.declinedBy == ["alan"])
        #expect(throws: RosterError.notNow("Alan Turing has declined it already")) {
            try Self.cover(.decline, by: "alan", in: state)
        }
        #expect(
            throws: RosterError.invalid([
                RosterViolation(field: "action", message: "say open, take, decline, cancel or back_out")
            ])
        ) {
            try Self.plan(.cover(.init(action: nil, requestID: "req_1")), by: Self.person("alan"), in: state)
        }
        #expect(throws: RosterError.missing("cover request \"req_9\" not found (`roster-client requests` lists them)"))
        {
            try Self.plan(
                .cover(.init(action: .take, requestID: "req_9")), by: Self.person("alan"), in: state, schedule: "")
        }
    }
}
