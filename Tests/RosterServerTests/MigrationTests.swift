import Foundation
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// A database made by release 0.3 (before schedules): the demo roster, a far-future shift for
/// Ada with a role, and a message of the day, at revision 4.
@Suite(.timeLimit(.minutes(10))) struct MigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/before-schedules.sqlite")

    @Test func aDatabaseFromBeforeSchedulesOpensUnchangedWithItsShiftsInTheDefaultSchedule() async throws {
        let directory = TestScratch.directory("roster-migration")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("roster.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixture.path, toPath: path)

        let store = try await SQLiteRosterStore.open(path: path)
        let tenant = try #require(try await store.loadTenants().first)
        #expect(tenant.revision == 4 && tenant.state.tenant.motd == "fixture from release 0.4")
        #expect(tenant.state.employees.count == 24 && tenant.state.shifts.count == 121)
        #expect(
            tenant.state.shifts.values.allSatisfy { $0.scheduleID.isEmpty }, "every old shift is the default schedule's"
        )
        #expect(tenant.state.schedules.keys.sorted() == [ScheduleDefinition.defaultID])
        let ada = try #require(tenant.state.employee(idOrName: "Ada Lovelace"))
        let far = TimeText.parseISO8601("2030-01-01T12:00:00Z")!
        let lookup = try #require(tenant.state.onDuty(at: far))
        #expect(lookup.current.map(\.employeeID) == [ada.id] && lookup.current.first?.role == "primary")
        #expect(tenant.history.map(\.revision) == [1, 2, 3, 4], "the change log is kept, so old clients resume")

        // The migrated file takes schedules like a new one.
        let schedule = ScheduleDefinition(
            id: "sch-1", name: "Platform", zone: "Europe/Berlin",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [[ada.id]], cadence: .weeks(1),
                            handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9))
                    ])
            ])
        // ... and keeps an audit log like a new one.
        try await store.commit(
            tenantID: tenant.state.tenant.id,
            entry: HistoryEntry(revision: 5, committedAt: 0, changes: [.scheduleUpserted(schedule)]),
            historyLimit: 100,
            audit: .with {
                $0.kind = "change"; $0.revision = 5; $0.reason = "after the upgrade"
            },
            outbox: OutboxWrite())
        let audited = try await store.auditEntries(
            tenantID: tenant.state.tenant.id, since: 0, limit: 10, matching: { _ in true })
        #expect(audited.entries.map(\.reason) == ["after the upgrade"])
        try await store.close()
        let reopened = try await SQLiteRosterStore.open(path: path)
        let again = try #require(try await reopened.loadTenants().first)
        #expect(again.state.schedules["sch-1"] == schedule && again.revision == 5)
        try await reopened.close()
    }
}
