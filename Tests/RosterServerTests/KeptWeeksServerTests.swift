import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// The weeks a server keeps of its answers (`ResolvedWeeks`), through a real server: a window
/// asked again gives the same shifts, and after a change the new ones.
@Suite(.timeLimit(.minutes(10))) struct KeptWeeksServerTests {
    @Test func aYearAskedAgainAfterAChangeShowsTheChange() async throws {
        try await withServer(now: TimeText.parseISO8601("2026-11-23T12:00:00Z")!) { harness in
            let team = try await ScheduleServerTests.team(harness)
            let year = ("2026-11-30T00:00:00Z", "2027-11-30T00:00:00Z")
            let first = try await ScheduleServerTests.final(team.admin, "Platform primary", from: year.0, to: year.1)
            #expect(first.count == 53)
            #expect(
                try await ScheduleServerTests.final(team.admin, "Platform primary", from: year.0, to: year.1) == first)
            // A window two hours after the first handoff shares the whole weeks, and only its first stretch differs.
            let later = try await ScheduleServerTests.final(
                team.admin, "Platform primary", from: "2026-11-30T10:00:00Z", to: year.1)
            #expect(later.first?.startMs == TimeText.parseISO8601("2026-11-30T10:00:00Z")!)
            #expect(Array(later.dropFirst()) == Array(first.dropFirst()))
            // A change half a year ahead: the same window now shows it.
            try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.addOverride = .with {
                            $0.kind = .add; $0.employeeID = "Linus Torvalds"
                            $0.startMs = TimeText.parseISO8601("2027-06-02T00:00:00Z")!
                            $0.endMs = TimeText.parseISO8601("2027-06-03T00:00:00Z")!
                        }
                    }))
            let after = try await ScheduleServerTests.final(team.admin, "Platform primary", from: year.0, to: year.1)
            let added = after.filter { $0.sourceKind == .override }
            #expect(added.map(\.employeeID) == [team.linus])
            #expect(added.first.map { TimeText.iso8601($0.startMs) } == "2027-06-02T00:00:00Z")
            #expect(after.filter { $0.sourceKind != .override } == first)
            await team.admin.close()
        }
    }
}
