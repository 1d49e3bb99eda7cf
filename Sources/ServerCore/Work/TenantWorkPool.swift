import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Where CPU-heavy work runs: resolving schedules for queries, feeds, previews, notices and
/// on-duty indexes, and planning admin changes. Threads of its own (never an event loop, never
/// the cooperative pool, which has one thread per core and stalls everything when busy), and one
/// queue per tenant, served in turn: a tenant that asks for a lot waits behind its own work only,
/// and another tenant's job starts as soon as a thread frees up. Each job is bounded by the
/// resolution budget, so a thread frees up within about a budget's time.
///
/// Past `maxQueuedPerTenant` waiting jobs a tenant's new work is refused (`Refusal.busy`),
/// which a connection answers with a retryable RESOURCE_EXHAUSTED.
package final class TenantWorkPool: Sendable {
    enum Refusal: Error, Equatable {
        /// The tenant has `maxQueuedPerTenant` jobs waiting.
        case busy
        /// The pool was stopped.
        case stopped
    }

    /// A job, and what to do instead when the pool stops before it runs.
    private struct Job: Sendable {
        var run: @Sendable () -> Void
        var refuse: @Sendable (Refusal) -> Void
    }

    private struct State {
        /// Waiting jobs per tenant; a tenant is in `turns` while it has any.
        var queues: [String: CircularBuffer<Job>] = [:]
        var turns = CircularBuffer<String>()
        var running = 0
        var stopped = false
    }

    let threads: Int
    let maxQueuedPerTenant: Int
    /// nil: every job runs at once on the caller's thread (the fuzz harness, which drives one
    /// embedded event loop and must see each input's work done before the next).
    private let pool: NIOThreadPool?
    private let state = NIOLockedValueBox(State())

    package init(threads: Int, maxQueuedPerTenant: Int) {
        self.threads = max(1, threads)
        self.maxQueuedPerTenant = max(1, maxQueuedPerTenant)
        let pool = NIOThreadPool(numberOfThreads: self.threads)
        pool.start()
        self.pool = pool
    }

    /// A pool that runs each job where it is submitted.
    static func inline() -> TenantWorkPool { TenantWorkPool() }

    private init() {
        threads = 1
        maxQueuedPerTenant = Int.max
        pool = nil
    }

    /// Queues `job` for `tenant`; the refusal when it was not queued (then it never runs). An
    /// urgent job goes first, in the tenant's queue and in the turns, and is never refused for
    /// the tenant's backlog.
    private func enqueue(_ tenant: String, urgent: Bool = false, _ job: Job) -> Refusal? {
        guard pool != nil else {
            job.run()
            return nil
        }
        let refusal: Refusal? = state.withLockedValue { state in
            if state.stopped { return .stopped }
            let waiting = state.queues[tenant]?.count ?? 0
            guard urgent || waiting < maxQueuedPerTenant else { return .busy }
            if urgent {
                if waiting > 0, let index = state.turns.firstIndex(of: tenant) { state.turns.remove(at: index) }
                state.turns.prepend(tenant)
                state.queues[tenant, default: CircularBuffer()].prepend(job)
            } else {
                if waiting == 0 { state.turns.append(tenant) }
                state.queues[tenant, default: CircularBuffer()].append(job)
            }
            return nil
        }
        if refusal == nil { pump() }
        return refusal
    }

    /// Starts jobs while threads are free, one tenant's turn at a time.
    private func pump() {
        while true {
            let next: Job? = state.withLockedValue { state in
                guard state.running < threads, let tenant = state.turns.popFirst() else { return nil }
                let job = state.queues[tenant]!.removeFirst()
                if state.queues[tenant]!.isEmpty { state.queues[tenant] = nil } else { state.turns.append(tenant) }
                state.running += 1
                return job
            }
            guard let next, let pool else { return }
            pool.submit { _ in
                next.run()
                self.state.withLockedValue { $0.running -= 1 }
                self.pump()
            }
        }
    }

    /// Runs `work` for `tenant` and completes the future on `loop` with its result.
    func submit<Result: Sendable>(_ tenant: String, on loop: any EventLoop,
                                  _ work: @escaping @Sendable () throws -> Result) -> EventLoopFuture<Result> {
        let promise = loop.makePromise(of: Result.self)
        let job = Job(run: { promise.completeWith(Swift.Result { try work() }) }, refuse: { promise.fail($0) })
        if let refusal = enqueue(tenant, job) { promise.fail(refusal) }
        return promise.futureResult
    }

    /// Runs `work` for `tenant` ahead of its waiting jobs (a handoff to announce); run where it
    /// is when the pool has stopped.
    func urgent(_ tenant: String, _ work: @escaping @Sendable () -> Void) {
        if enqueue(tenant, urgent: true, Job(run: work, refuse: { _ in })) != nil { work() }
    }

    /// Runs `work` for `tenant` and returns its result, suspending (not blocking) meanwhile.
    package func run<Result: Sendable>(_ tenant: String, _ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            let job = Job(run: { continuation.resume(with: Swift.Result { try work() }) },
                          refuse: { continuation.resume(throwing: $0) })
            if let refusal = enqueue(tenant, job) { continuation.resume(throwing: refusal) }
        }
    }

    /// `run` for work that cannot fail.
    package func run<Result: Sendable>(_ tenant: String, _ work: @escaping @Sendable () -> Result) async -> Result? {
        try? await run(tenant) { () throws -> Result in work() }
    }

    /// Jobs waiting or running, for a harness to tell when everything handed off is done.
    var isIdle: Bool { state.withLockedValue { $0.running == 0 && $0.turns.isEmpty } }

    /// Refuses new work, fails what still waits, and stops the threads once the running jobs end.
    package func shutdown() async {
        let waiting = state.withLockedValue { state -> [Job] in
            state.stopped = true
            defer { state.queues = [:]; state.turns = CircularBuffer() }
            return state.queues.values.flatMap { Array($0) }
        }
        for job in waiting { job.refuse(.stopped) }
        try? await pool?.shutdownGracefully()
    }
}
