import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterViewModels
import Testing

/// The model's own handoff timer, on a clock the test moves.
@MainActor @Suite(.timeLimit(.minutes(10))) struct HandoffTimerTests {
    @Test func runTicksAtTheHandoffWhileOffline() async throws {
        let shifts = [
            Shift(id: "s1", employeeID: ada.id, start: t0, end: t0 + 30 * minute),
            Shift(id: "s2", employeeID: grace.id, start: t0 + 30 * minute, end: t0 + 60 * minute),
        ]
        let instant = NIOLockedValueBox(t0 + 30 * minute - 100)  // 100 ms before the handoff
        // Nothing cached at launch: the plan arrives after the model started waiting.
        let source = FakeRosterSource()
        let model = RosterScreenModel(source: source, clock: { instant.withLockedValue { $0 } })
        let running = Task { await model.run() }
        #expect(
            await eventually { source.started.withLockedValue { $0 } == 1 }, "the model runs and waits for the source")
        source.continuation.yield(.synced(cached([ada, grace], shifts: shifts)))
        source.continuation.yield(.connectionState(.reconnecting(attempt: 1, nextRetry: Date())))
        #expect(await eventually { model.onDuty.first?.status.current.map(\.employee.firstName) == ["Ada"] })
        instant.withLockedValue { $0 = t0 + 30 * minute }
        #expect(
            await eventually { model.onDuty.first?.status.current.map(\.employee.firstName) == ["Grace"] },
            "the model ticks at the handoff by itself")
        running.cancel()
        await running.value
    }
}
