import Dispatch
import NIOConcurrencyHelpers
import NIOPosix
import RosterDomain
import RosterProtocol
import RosterSystem
@testable import RosterServerCore
import RosterTestSupport
import Testing

/// The work pool's lanes: long work never takes the thread kept for short work, so one tenant's
/// year queries cannot make another wait for "who is on call now".
@Suite(.timeLimit(.minutes(10))) struct TenantWorkPoolTests {
    /// A gate the jobs wait at (on the pool's own threads, which is what they are for).
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let started = NIOLockedValueBox(0)
        var count: Int { started.withLockedValue { $0 } }
        func enter() {
            started.withLockedValue { $0 += 1 }
            semaphore.wait()
        }
        func open(_ jobs: Int) { for _ in 0..<jobs { semaphore.signal() } }
    }

    @Test func longJobsLeaveAThreadForShortOnes() async throws {
        let pool = TenantWorkPool(threads: 2, maxQueuedPerTenant: 100)
        let gate = Gate()
        // The noisy tenant queues four long jobs: one runs, three wait for it. Queued at once
        // from here (not from tasks, which a loaded run may start late), completed on a loop.
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let noisy = (0..<4).map { _ in pool.submit("noisy", lane: .long, on: loop) { gate.enter() } }
        // All four queued: one running and three waiting, none on the second thread.
        #expect(await eventually(30) { gate.count == 1 && pool.waitingJobs("noisy") == 3 })
        #expect(gate.count == 1, "long work holds one of the two threads, not both")
        // A quiet tenant's short job runs meanwhile, and so does the noisy one's own short job.
        let quiet: Int? = await pool.run("quiet", lane: .short) { 42 }
        let noisyShort: Int? = await pool.run("noisy", lane: .short) { 7 }
        #expect(quiet == 42 && noisyShort == 7)
        // A quiet tenant's long job waits its turn in the long lane: tenants take turns, so it
        // runs after the noisy tenant's next job, not after all of them.
        let order = NIOLockedValueBox<[String]>([])
        let quietLong = pool.submit("quiet", lane: .long, on: loop) { order.withLockedValue { $0.append("quiet") } }
        #expect(await eventually(30) { pool.waitingJobs("quiet") == 1 })
        gate.open(1)
        #expect(await eventually(30) { gate.count == 2 })
        #expect(order.withLockedValue { $0 }.isEmpty)
        gate.open(1)
        try await quietLong.get()
        #expect(order.withLockedValue { $0 } == ["quiet"])
        #expect(await eventually(30) { gate.count == 3 })
        gate.open(2)
        for job in noisy { try await job.get() }
        #expect(gate.count == 4)
        await pool.shutdown()
    }

    /// Long reads in slices run on background threads at a lower priority, so they give way to
    /// short work, changes and the event loops when the cores are busy; other long work (a
    /// change, a report) and short work keep the caller's priority. With one thread nothing is
    /// lowered (everything runs there).
    @Test func slicedReadsRunAtALowerPriorityAndEverythingElseAtTheNormalOne() async throws {
        let base = ThreadPriority.current
        let pool = TenantWorkPool(threads: 2, maxQueuedPerTenant: 100)
        let sliced = try await pool.runSliced("noisy", lane: .long) { () -> Int32? in ThreadPriority.current }
        let long: Int32? = await pool.run("noisy", lane: .long) { ThreadPriority.current }
        let short: Int32? = await pool.run("quiet", lane: .short) { ThreadPriority.current }
        #expect(sliced == max(base, TenantWorkPool.backgroundNiceness))
        #expect(long == base && short == base)
        await pool.shutdown()
        let single = TenantWorkPool(threads: 1, maxQueuedPerTenant: 100)
        let alone = try await single.runSliced("noisy", lane: .long) { () -> Int32? in ThreadPriority.current }
        #expect(alone == base)
        await single.shutdown()
    }

    /// A long job in slices goes back to the round robin after each: another tenant's long read,
    /// queued while the first slice ran, runs before the second slice (with one background
    /// thread); a change, meanwhile, does not wait for either.
    @Test func aSlicedJobLetsAnotherTenantsWorkRunBetweenItsSlices() async throws {
        let pool = TenantWorkPool(threads: 2, maxQueuedPerTenant: 100)
        let gate = Gate()
        let order = NIOLockedValueBox<[String]>([])
        let slices = NIOLockedValueBox(0)
        let loop = MultiThreadedEventLoopGroup.singleton.any()
        let noisy = pool.submitSliced("noisy", lane: .long, on: loop) { () -> Int? in
            let slice = slices.withLockedValue {
                $0 += 1; return $0
            }
            order.withLockedValue { $0.append("noisy \(slice)") }
            if slice == 1 { gate.enter() }
            return slice == 3 ? slice : nil
        }
        #expect(await eventually(30) { gate.count == 1 })
        // Queued (synchronously, here) while the first slice holds the only background thread.
        let quiet = pool.submitSliced("quiet", lane: .long, on: loop) { () -> Bool? in
            order.withLockedValue { $0.append("quiet") }; return true
        }
        let change: Int? = await pool.run("quiet", lane: .long) { 1 }
        #expect(change == 1 && order.withLockedValue { $0 } == ["noisy 1"])
        gate.open(1)
        #expect(try await noisy.get() == 3)
        _ = try await quiet.get()
        #expect(order.withLockedValue { $0 } == ["noisy 1", "quiet", "noisy 2", "noisy 3"])
        // Slices past the backlog limit are not refused: the job was admitted once.
        let small = TenantWorkPool(threads: 1, maxQueuedPerTenant: 1)
        let count = NIOLockedValueBox(0)
        let done = try await small.runSliced("t", lane: .long) { () -> Int? in
            count.withLockedValue {
                $0 += 1; return $0 == 5 ? $0 : nil
            }
        }
        #expect(done == 5)
        await small.shutdown()
        await pool.shutdown()
    }

    @Test func oneThreadRunsEverythingAndTheBacklogCountsBothLanes() async throws {
        let single = TenantWorkPool(threads: 1, maxQueuedPerTenant: 2)
        #expect(single.longThreads == 1 && TenantWorkPool(threads: 4, maxQueuedPerTenant: 1).longThreads == 3)
        let one: Int? = await single.run("t", lane: .long) { 1 }
        #expect(one == 1)
        let gate = Gate()
        let running = Task { await single.run("t", lane: .long) { gate.enter() } }
        #expect(await eventually(30) { gate.count == 1 })
        let waiting = [
            Task { await single.run("t", lane: .short) { 0 } }, Task { await single.run("t", lane: .long) { 0 } },
        ]
        #expect(await eventually(30) { single.waitingJobs("t") == 2 })
        await #expect(throws: TenantWorkPool.Refusal.busy) {
            try await single.run("t", lane: .short) { () throws -> Int in 0 }
        }
        gate.open(1)
        _ = await running.value
        for task in waiting { _ = await task.value }
        await single.shutdown()
    }

    @Test func requestsAndChangesAreSortedIntoLanes() {
        let day: Int64 = 86_400_000
        #expect(
            TenantWorkPool.Lane.of(.getOnDuty(.init())) == .short
                && TenantWorkPool.Lane.of(.getSnapshot(.init())) == .short)
        #expect(
            TenantWorkPool.Lane.of(
                .getFinalSchedule(
                    .with {
                        $0.fromMs = 0; $0.toMs = 7 * day
                    })) == .short)
        #expect(
            TenantWorkPool.Lane.of(
                .getFinalSchedule(
                    .with {
                        $0.fromMs = 0; $0.toMs = 365 * day
                    })) == .long)
        #expect(
            TenantWorkPool.Lane.of(.getReport(.init())) == .long
                && TenantWorkPool.Lane.of(.editSchedule(.init())) == .long)
        #expect(
            TenantWorkPool.Lane.of(
                .getFinalSchedule(
                    .with {
                        $0.fromMs = .max; $0.toMs = .min
                    })) == .short, "no overflow")
        #expect(TenantWorkPool.Lane.of(changes: [.motdSet("x")]) == .short)
        #expect(TenantWorkPool.Lane.of(changes: [.motdSet("x"), .scheduleDeleted(id: "s")]) == .long)
    }
}
