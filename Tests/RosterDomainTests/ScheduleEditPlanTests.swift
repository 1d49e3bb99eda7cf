import Foundation
import RosterDomain
import Testing

/// Admin and reader schedule edits planned as pure values (`ScheduleEdit`): who may make which,
/// a conflict's proposal taken, time off and swaps, each with the duty it moves.
@Suite(.timeLimit(.minutes(10))) struct ScheduleEditPlanTests {
    typealias Fixture = SelfServicePlanTests
    static let now = Fixture.now, day = Fixture.day, hour = Fixture.hour

    static func plan(
        _ edit: ScheduleChangeRequest.Edit, by caller: Caller = Fixture.admin, in state: RosterState = Fixture.state(),
        schedule: String = "p"
    ) throws(RosterError) -> ScheduleEdit {
        try ScheduleEdit.plan(
            ScheduleChangeRequest(schedule: schedule, edit: edit), state: state, actor: caller, now: now,
            newID: { "\($0)_new" })
    }

    static func refusal(_ edit: ScheduleChangeRequest.Edit, by id: String, in state: RosterState = Fixture.state())
        -> RosterError?
    {
        ScheduleEdit.refusal(of: ScheduleChangeRequest(schedule: "p", edit: edit), by: Fixture.person(id), state: state)
    }

    @Test func aReaderMayOnlyPutThemselvesOnDutyWhereTheScheduleAllowsAndRecordTheirOwnTimeOff() {
        let mine = ScheduleOverride(
            id: "", kind: .add("Linus Pauling"), start: Self.now + Self.hour, end: Self.now + 2 * Self.hour)
        var theirs = mine
        theirs.kind = .replace(replacing: "ada", with: "alan")
        var removal = mine
        removal.kind = .remove("linus")
        let volunteering = Fixture.state { $0.readersMayVolunteer = true }
        #expect(
            Self.refusal(.addOverride(mine), by: "linus")
                == .denied(
                    "schedule \"Platform\" does not let readers put themselves on duty (an admin can allow it)"))
        #expect(Self.refusal(.addOverride(mine), by: "linus", in: volunteering) == nil)
        #expect(
            Self.refusal(.addOverride(theirs), by: "linus", in: volunteering)
                == .denied(
                    "a reader may only put themselves (Linus Pauling) on duty"))
        #expect(
            Self.refusal(.addOverride(removal), by: "linus", in: volunteering)
                == .denied(
                    "a reader may only add an override that puts themselves on duty"))
        #expect(Self.refusal(.deleteSchedule, by: "linus", in: volunteering) != nil)
        let myTimeOff = ScheduleChangeRequest.TimeOffEdit(
            action: .add, start: Self.now + Self.day, end: Self.now + 2 * Self.day)
        var adasTimeOff = myTimeOff
        adasTimeOff.person = "Ada Lovelace"
        #expect(Self.refusal(.timeOff(myTimeOff), by: "linus") == nil)
        #expect(
            Self.refusal(.timeOff(adasTimeOff), by: "linus")
                == .denied(
                    "a reader may only record their own time off (an admin records anyone's)"))
    }

    @Test func aConflictsFirstProposalReplacesThePersonFromNowOn() throws {
        // Alan is away on his turn tomorrow: a conflict, with Ada or Grace proposed.
        var state = Fixture.state()
        let off = TimeOff(id: "off_1", employeeID: "alan", start: Self.now + Self.day, end: Self.now + 2 * Self.day)
        state.apply(.timeOffSet(off))
        let shifts = try ScheduleResolver.resolve(
            try #require(state.schedules["p"]), from: Self.now, to: Self.now + 3 * Self.day)
        let conflict = try #require(DutyConflicts.find(scheduleID: "p", shifts: shifts, timeOff: [off]).first)
        let edit = try Self.plan(.takeSuggestion(conflictID: conflict.id), in: state)
        guard case .scheduleUpserted(let after) = try #require(edit.changes.first?.change) else {
            Issue.record("not a schedule change: \(edit.changes)")
            return
        }
        let override = try #require(after.overrides.first)
        #expect(edit.createdIDs == ["ovr_new"] && override.start == off.start && override.end == off.end)
        guard case .replace(replacing: "alan", with: let covering) = override.kind else {
            Issue.record("not a replacement of Alan: \(override.kind)")
            return
        }
        #expect(["ada", "grace"].contains(covering))
        #expect(edit.deltas.contains { $0.employeeID == covering } && edit.deltas.contains { $0.employeeID == "alan" })
        #expect(throws: RosterError.notFound("conflict \"off_9.x\" (from now on)", suggestions: [])) {
            try Self.plan(.takeSuggestion(conflictID: "off_9.x"), in: state)
        }
    }

    @Test func timeOffNamesItsPersonAndIsCheckedAsACommitChecksIt() throws {
        let add = ScheduleChangeRequest.TimeOffEdit(
            action: .add, person: "Alan Turing", start: Self.now + Self.day,
            end: Self.now + 2 * Self.day, reason: "flu")
        let edit = try Self.plan(.timeOff(add))
        #expect(edit.createdIDs == ["off_new"])
        guard case .timeOffSet(let entry) = try #require(edit.changes.first?.change) else {
            Issue.record("not time off: \(edit.changes)")
            return
        }
        #expect(entry.employeeID == "alan" && entry.author == "t-admin" && entry.reason == "flu")
        var nobody = add
        nobody.person = ""
        #expect(
            throws: RosterError.invalid([
                RosterViolation(field: "person", message: "name the person (this token names nobody)")
            ])
        ) {
            try Self.plan(.timeOff(nobody))
        }
        var backwards = add
        (backwards.start, backwards.end) = (add.end, add.start)
        #expect(throws: RosterError.self) { try Self.plan(.timeOff(backwards)) }
        #expect(throws: RosterError.invalid([RosterViolation(field: "action", message: "is ADD, DELETE or IMPORT")])) {
            try Self.plan(.timeOff(.init(action: nil)))
        }
    }

    @Test func aSwapTradesTwoTurnsAndShowsTheDutyItMoves() throws {
        // Ada's turn today for Grace's the day after tomorrow.
        let swap = ScheduleChangeRequest.Swap(
            first: "ada", firstFrom: Self.now, firstTo: Self.now + Self.day, second: "Grace Hopper",
            secondFrom: Self.now + 2 * Self.day, secondTo: Self.now + 3 * Self.day)
        let edit = try Self.plan(.swap(swap))
        #expect(edit.scheduleID == "p" && edit.createdIDs.count == 2)
        #expect(Set(edit.deltas.map(\.employeeID)) == ["ada", "grace"])
        var backwards = swap
        backwards.firstTo = swap.firstFrom
        #expect(
            throws: RosterError.invalid([
                RosterViolation(field: "window", message: "each turn's start must be before its end")
            ])
        ) {
            try Self.plan(.swap(backwards))
        }
        #expect(
            throws: RosterError.notFound("schedule \"nope\"", suggestions: Fixture.state().sortedSchedules.map(\.name))
        ) {
            try Self.plan(.swap(swap), schedule: "nope")
        }
    }
}
