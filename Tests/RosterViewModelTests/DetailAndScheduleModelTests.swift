import Foundation
import RosterClient
import RosterDomain
import RosterViewModels
import Testing

/// The detail and schedule screens, reading the screen model's roster.
@MainActor @Suite(.timeLimit(.minutes(10))) struct DetailAndScheduleModelTests {
    let shifts = [
        Shift(id: "s1", employeeID: ada.id, start: t0, end: t0 + 30 * minute),
        Shift(id: "s2", employeeID: grace.id, start: t0 + 30 * minute, end: t0 + 60 * minute),
        Shift(id: "s3", employeeID: ada.id, start: t0 + 90 * minute, end: t0 + 120 * minute),
    ]

    @Test func detailShowsThePersonTheirNextShiftsAndTheContact() async throws {
        let contacts = VCardDirectory(parsing: "BEGIN:VCARD\nN:LOVELACE;ada\nTEL:+44 1\nEND:VCARD\n")
        let source = FakeRosterSource(roster: cached([ada, grace], shifts: shifts))
        let screen = RosterScreenModel(source: source, contacts: contacts)
        await screen.receive(.synced(try #require(source.roster)))
        let detail = EmployeeDetailModel(employeeID: ada.id, screen: screen)
        #expect(detail.fullName == "Ada Lovelace" && detail.email == "ada@acme.test")
        #expect(detail.position == "Engineer" && detail.team == "Core" && detail.projects == ["Engine"])
        #expect(
            detail.phone == "" && detail.biography == "" && detail.photoURL == nil
                && detail.employeeType == .unspecified)
        #expect(detail.matchesContact && detail.contact?.phones == ["+44 1"])
        let next = detail.nextDuty(now: t0 + 40 * minute)
        #expect(next.map(\.schedule) == ["Default"])
        #expect(next.first?.stretches.map(\.item.source) == [.shift(id: "s3")], "a shift that ended is not next")
        #expect(!EmployeeDetailModel(employeeID: grace.id, screen: screen).matchesContact)

        source.roster = cached([grace], shifts: [shifts[1]], revision: 2)
        await screen.receive(.rosterChanged(revision: 2, changes: [.employeeDeleted(id: ada.id)]))
        #expect(detail.employee == nil && detail.fullName == "" && detail.nextDuty().isEmpty, "deleted while shown")
    }

    /// Duty from a rotation and an override counts, not only one-off shifts, per schedule.
    @Test func detailListsDutyFromEverySourcePerSchedule() async throws {
        let day: UnixMillis = 1_440 * minute
        let rotation = Rotation(
            id: "r1", slots: [[ada.id], [grace.id]], cadence: .days(1),
            handoff: LocalDateTime(year: 2026, month: 1, day: 1))
        let platform = ScheduleDefinition(
            id: "p", name: "Platform", zone: "UTC", layers: [ScheduleLayer(level: 1, rotations: [rotation])],
            overrides: [
                ScheduleOverride(
                    id: "o1", kind: .replace(replacing: grace.id, with: ada.id), start: t0 + day,
                    end: t0 + day + 60 * minute)
            ])
        let state = RosterState(
            tenant: Tenant(id: "acme", name: "Acme"), employees: [ada, grace], shifts: [shifts[2]],
            schedules: [platform])
        let source = FakeRosterSource(roster: CachedRoster(state: state, epoch: 7, revision: 1, syncedAt: Date()))
        let screen = RosterScreenModel(source: source)
        await screen.receive(.synced(try #require(source.roster)))
        let next = EmployeeDetailModel(employeeID: ada.id, screen: screen).nextDuty(now: t0 + 40 * minute)
        #expect(next.map(\.schedule) == ["Default", "Platform"])
        let onPlatform = try #require(next.last?.stretches)
        // As `show PERSON`: the turn under way from its start, not from now, and joined with the
        // override that has her cover Grace's first hour right after it: one stretch to her.
        let first = try #require(onPlatform.first)
        #expect(
            first.start == t0 && first.end == t0 + day + 60 * minute,
            "her turn under way, then covering Grace: \(onPlatform)")
        #expect(first.pieces.map(\.source).last == .override(id: "o1") && first.pieces.count == 2, "\(first.pieces)")
        #expect(onPlatform.allSatisfy { $0.item.employeeID == ada.id })
    }

    @Test func scheduleListsHandoffsAndTheFinalScheduleInAWindow() async throws {
        let screen = RosterScreenModel(source: FakeRosterSource())
        let schedule = ScheduleModel(screen: screen)
        #expect(schedule.handoffs(after: t0).isEmpty && schedule.finalSchedule(from: t0, to: t0 + 1).isEmpty)
        await screen.receive(.synced(cached([ada, grace], shifts: shifts)))
        #expect(schedule.name == "Default", "the default schedule by its own name, as everywhere")
        let handoffs = schedule.handoffs(after: t0 + 10 * minute)
        #expect(handoffs.map(\.at) == [t0 + 30 * minute, t0 + 60 * minute, t0 + 90 * minute, t0 + 120 * minute])
        #expect(handoffs.map { $0.from.map(\.firstName) } == [["Ada"], ["Grace"], [], ["Ada"]])
        #expect(
            handoffs.map { $0.to.map(\.firstName) } == [["Grace"], [], ["Ada"], []], "a gap is a handoff to nobody")
        #expect(schedule.handoffs(after: t0, limit: 2).count == 2)

        let window = schedule.finalSchedule(from: t0 + 15 * minute, to: t0 + 100 * minute)
        #expect(window.map(\.employeeID) == [ada.id, grace.id, ada.id])
        #expect(window.first?.start == t0 + 15 * minute, "clipped to the window")
        #expect(window.last?.end == t0 + 100 * minute)
        #expect(window.allSatisfy { $0.source == "shift" && $0.employee != nil })
    }
}
