import Foundation
import RosterClient
@testable import RosterCommandLine
import RosterDomain
import Testing

/// What `watch --json` prints while the server is unreachable, without a server or a socket: the
/// cached plan read at an instant (`CommandRunner.cachedPlan`), and which of its states are news
/// (`OfflineOnDutyLines`). WatchExecTests runs the same with the real binaries and a killed server.
@Suite(.timeLimit(.minutes(10))) struct WatchOfflineLinesTests {
    static let hour: UnixMillis = 3_600_000
    static let monday: UnixMillis = 1_795_996_800_000  // 2026-11-30 00:00 UTC

    /// Ada and Alan hand over daily at 09:00 UTC on "Platform"; the default schedule holds a
    /// one-off shift of Grace's that ends at 12:00.
    static let state: RosterState = {
        let people = [
            Employee(id: "ada", firstName: "Ada", lastName: "Lovelace"),
            Employee(id: "alan", firstName: "Alan", lastName: "Turing"),
            Employee(id: "grace", firstName: "Grace", lastName: "Hopper"),
        ]
        let platform = ScheduleDefinition(
            id: "p", name: "Platform", zone: "UTC",
            layers: [
                ScheduleLayer(
                    level: 0,
                    rotations: [
                        Rotation(
                            id: "r", slots: [["ada"], ["alan"]], cadence: .days(1),
                            handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9))
                    ])
            ])
        return RosterState(
            tenant: Tenant(id: "t", name: "Acme"), employees: people,
            shifts: [Shift(id: "s1", employeeID: "grace", start: monday + 8 * hour, end: monday + 12 * hour)],
            schedules: [platform])
    }()

    static func people(_ status: OnDutyStatus) -> [String] { status.current.map(\.employee.id) }

    @Test func theCachedPlanGivesEverySchedulesStateAndWakesAtTheFirstHandoff() throws {
        let early = CommandRunner.cachedPlan(Self.state, revision: 4, at: Self.monday + 10 * Self.hour)
        let platform = try #require(early.statuses.first { $0.scheduleID == "p" })
        let standing = try #require(early.statuses.first { $0.scheduleID == ScheduleDefinition.defaultID })
        #expect(Self.people(platform) == ["ada"] && platform.scheduleName == "Platform" && platform.revision == 4)
        #expect(Self.people(standing) == ["grace"] && standing.scheduleName == "", "the default schedule is unnamed")
        #expect(early.wake == Self.monday + 10 * Self.hour + 60_000, "a minute at the latest")
        // Half a minute before Grace's shift ends, the end is the wake.
        let late = CommandRunner.cachedPlan(Self.state, revision: 4, at: Self.monday + 12 * Self.hour - 30_000)
        #expect(late.wake == Self.monday + 12 * Self.hour)
        let after = CommandRunner.cachedPlan(Self.state, revision: 4, at: Self.monday + 12 * Self.hour)
        #expect(after.statuses.first { $0.scheduleID == ScheduleDefinition.defaultID }.map(Self.people) ?? [] == [])
    }

    @Test func offlineAHandoffByTheCacheIsPrintedOnceAndTheFirstStateIsTheBaseline() async throws {
        let lines = OfflineOnDutyLines()
        func platform(at instant: UnixMillis) throws -> OnDutyStatus {
            try #require(
                CommandRunner.cachedPlan(Self.state, revision: 1, at: instant).statuses.first { $0.scheduleID == "p" })
        }
        #expect(await !lines.shouldPrint(try platform(at: Self.monday + 8 * Self.hour)), "the baseline is not news")
        #expect(await !lines.shouldPrint(try platform(at: Self.monday + 8 * Self.hour + 1)))
        let handedOver = try platform(at: Self.monday + 33 * Self.hour)
        #expect(Self.people(handedOver) == ["alan"])
        #expect(await lines.shouldPrint(handedOver), "Ada to Alan while offline")
        #expect(await !lines.shouldPrint(handedOver), "printed once")
    }

    @Test func whileLiveTheServersPushesAreTheLinesAndTheCachePrintsNothing() async throws {
        let lines = OfflineOnDutyLines()
        let ada = try #require(
            CommandRunner.cachedPlan(Self.state, revision: 1, at: Self.monday + 10 * Self.hour).statuses.first {
                $0.scheduleID == "p"
            })
        let alan = try #require(
            CommandRunner.cachedPlan(Self.state, revision: 1, at: Self.monday + 33 * Self.hour).statuses.first {
                $0.scheduleID == "p"
            })
        await lines.connection(.live)
        await lines.printed(ada)
        #expect(await !lines.shouldPrint(alan), "the server's push says it, not the cache")
        // The connection drops: the cache speaks again, from what was printed last.
        await lines.connection(.offline)
        await lines.printed(ada)
        #expect(await lines.shouldPrint(alan))
    }
}
