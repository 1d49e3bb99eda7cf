import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import RosterSystem

/// Where CPU-heavy work runs: resolving schedules for queries, feeds, previews, notices and
/// on-duty indexes, and planning admin changes. Threads of its own (never an event loop, never
/// the cooperative pool, which has one thread per core and stalls everything when busy), and one
/// queue per tenant, served in turn: a tenant that asks for a lot waits behind its own work only,
/// and another tenant's job starts as soon as a thread frees up. Each job is bounded by the
/// resolution budget, so a thread frees up within about a budget's time.
///
/// Each job says its lane. Short jobs (an on-duty lookup, a listing, a page of now, a window of
/// up to a week) may run on every thread but the background ones; long ones (longer windows,
/// reports, feeds, plans, imports) never on the last: one thread is kept for short work, so a
/// quiet tenant's "who is on call now" never waits behind another tenant's year queries,
/// however many are queued. Short jobs are started first (they end soon); within a lane tenants
/// take turns. Long reads resolved in slices (`submitSliced`, `runSliced`: a final schedule over
/// months) run on threads of their own at a lower priority (`backgroundNiceness`), so that when
/// the cores are busy they give way to the event loops, short work and changes, not only to
/// other jobs; changes, reports and plans keep the normal priority.
///
/// Past `maxQueuedPerTenant` waiting jobs a tenant's new work is refused (`Refusal.busy`),
/// which a connection answers with a retryable RESOURCE_EXHAUSTED.
package final class TenantWorkPool: Sendable {
    /// How long a job may take; see the type's comment.
    package enum Lane: Sendable, CaseIterable {
        case short, long

        /// The lane of a job that resolves `from..<to`: short up to a week.
        package static func window(_ from: Int64, _ to: Int64) -> Lane { to &- from <= 7 * 86_400_000 ? .short : .long }
    }

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

    /// Where a job waits: short, long, or long and sliced (on the background threads).
    private enum Queueing {
        case short, long, background
    }

    /// One lane's waiting jobs per tenant; a tenant is in `turns` while it has any.
    private struct Queue {
        var jobs: [String: CircularBuffer<Job>] = [:]
        var turns = CircularBuffer<String>()

        mutating func take() -> Job? {
            guard let tenant = turns.popFirst() else { return nil }
            let job = jobs[tenant]!.removeFirst()
            if jobs[tenant]!.isEmpty { jobs[tenant] = nil } else { turns.append(tenant) }
            return job
        }
    }

    private struct State {
        var short = Queue()
        var long = Queue()
        var background = Queue()
        /// Jobs running on the shared threads and the reserved one.
        var running = 0
        var runningLong = 0
        var runningBackground = 0
        var reservedBusy = false
        var stopped = false

        subscript(queueing: Queueing) -> Queue {
            get {
                switch queueing {
                case .short: short
                case .long: long
                case .background: background
                }
            }
            set {
                switch queueing {
                case .short: short = newValue
                case .long: long = newValue
                case .background: background = newValue
                }
            }
        }

        var isEmpty: Bool { short.turns.isEmpty && long.turns.isEmpty && background.turns.isEmpty }

        /// The tenant's waiting jobs in every lane.
        func waiting(_ tenant: String) -> Int {
            [short, long, background].reduce(0) { $0 + ($1.jobs[tenant]?.count ?? 0) }
        }
    }

    /// The background threads' niceness (0 is a normal thread's, 19 the lowest priority): about
    /// a tenth of a core's share against a busy thread of normal priority.
    static let backgroundNiceness: Int32 = 10

    let threads: Int
    /// Threads long jobs may hold at once: all but one, when there are two or more; as many
    /// background threads again run sliced reads.
    let longThreads: Int
    let maxQueuedPerTenant: Int
    /// The threads every job but sliced reads may run on (all but the reserved one); nil: every
    /// job runs at once on the caller's thread (the fuzz harness, which drives one embedded
    /// event loop and must see each input's work done before the next).
    private let pool: NIOThreadPool?
    /// The thread only short jobs run on; nil with a single thread.
    private let reserved: NIOThreadPool?
    /// The threads sliced long reads run on, at `backgroundNiceness`; nil with a single thread
    /// (they share it then, at the normal priority).
    private let background: NIOThreadPool?
    private let state = NIOLockedValueBox(State())

    package init(threads: Int, maxQueuedPerTenant: Int) {
        self.threads = max(1, threads)
        longThreads = max(1, self.threads - 1)
        self.maxQueuedPerTenant = max(1, maxQueuedPerTenant)
        func started(_ count: Int) -> NIOThreadPool {
            let pool = NIOThreadPool(numberOfThreads: count)
            pool.start()
            return pool
        }
        pool = started(longThreads)
        (reserved, background) = self.threads > 1 ? (started(1), started(longThreads)) : (nil, nil)
    }

    /// A pool that runs each job where it is submitted.
    static func inline() -> TenantWorkPool { TenantWorkPool() }

    private init() {
        threads = 1
        longThreads = 1
        maxQueuedPerTenant = Int.max
        (pool, reserved, background) = (nil, nil, nil)
    }

    /// The jobs `tenant` has waiting, in every lane (what the backlog limit counts).
    func waitingJobs(_ tenant: String) -> Int { state.withLockedValue { $0.waiting(tenant) } }

    /// Where a job of `lane` waits; `sliced` for a long read in slices.
    private func queueing(_ lane: Lane, sliced: Bool = false) -> Queueing {
        lane == .short ? .short : sliced && background != nil ? .background : .long
    }

    /// Queues `job` for `tenant`; the refusal when it was not queued (then it never runs). An
    /// urgent job (short) goes first, in the tenant's queue and in the turns, and is never
    /// refused for the tenant's backlog. The backlog counts every lane.
    private func enqueue(
        _ tenant: String, _ queueing: Queueing, urgent: Bool = false, requeued: Bool = false, _ job: Job
    ) -> Refusal? {
        guard pool != nil else {
            job.run()
            return nil
        }
        let refusal: Refusal? = state.withLockedValue { state in
            if state.stopped { return .stopped }
            let waiting = state[queueing].jobs[tenant]?.count ?? 0
            // A sliced job coming back for its next slice was admitted already.
            guard urgent || requeued || state.waiting(tenant) < maxQueuedPerTenant else { return .busy }
            if urgent {
                if waiting > 0, let index = state[queueing].turns.firstIndex(of: tenant) {
                    state[queueing].turns.remove(at: index)
                }
                state[queueing].turns.prepend(tenant)
                state[queueing].jobs[tenant, default: CircularBuffer()].prepend(job)
            } else {
                if waiting == 0 { state[queueing].turns.append(tenant) }
                state[queueing].jobs[tenant, default: CircularBuffer()].append(job)
            }
            return nil
        }
        if refusal == nil { pump() }
        return refusal
    }

    /// Starts jobs while threads are free: short ones first (on the reserved thread when it is
    /// free), long ones while they hold fewer than `longThreads`, sliced reads on the background
    /// threads; one tenant's turn at a time in each lane.
    private func pump() {
        let hasReserved = reserved != nil
        while true {
            let next: (job: Job, queueing: Queueing, onReserved: Bool)? = state.withLockedValue { state in
                let reservedFree = hasReserved && !state.reservedBusy
                let sharedFree = state.running - (state.reservedBusy ? 1 : 0) < longThreads
                if reservedFree || sharedFree, let job = state.short.take() {
                    state.running += 1
                    if reservedFree { state.reservedBusy = true }
                    return (job, .short, reservedFree)
                }
                if sharedFree, state.runningLong < longThreads, let job = state.long.take() {
                    state.running += 1
                    state.runningLong += 1
                    return (job, .long, false)
                }
                guard state.runningBackground < longThreads, let job = state.background.take() else { return nil }
                state.runningBackground += 1
                return (job, .background, false)
            }
            guard let next, let pool else { return }
            let threads = next.queueing == .background ? background! : next.onReserved ? reserved! : pool
            threads.submit { _ in
                if next.queueing == .background { ThreadPriority.lowerCurrentThread(to: Self.backgroundNiceness) }
                next.job.run()
                self.state.withLockedValue { state in
                    switch next.queueing {
                    case .background: state.runningBackground -= 1
                    case .long: state.runningLong -= 1; state.running -= 1
                    case .short: state.running -= 1
                    }
                    if next.onReserved { state.reservedBusy = false }
                }
                self.pump()
            }
        }
    }

    /// Runs `work` for `tenant` and completes the future on `loop` with its result.
    func submit<Result: Sendable>(
        _ tenant: String, lane: Lane, on loop: any EventLoop,
        _ work: @escaping @Sendable () throws -> Result
    ) -> EventLoopFuture<Result> {
        let promise = loop.makePromise(of: Result.self)
        let job = Job(run: { promise.completeWith(Swift.Result { try work() }) }, refuse: { promise.fail($0) })
        if let refusal = enqueue(tenant, queueing(lane), job) { promise.fail(refusal) }
        return promise.futureResult
    }

    /// Runs `step` for `tenant` until it gives a result, one slice per turn: after a slice that
    /// returns nil the job goes to the back of its tenant's queue, behind the other tenants' turns
    /// in its lane, so long work (a year of a dense schedule) holds a thread for one slice at a
    /// time. Slices run one after another, never at once, so `step` may keep state between them.
    func submitSliced<Result: Sendable>(
        _ tenant: String, lane: Lane, on loop: any EventLoop,
        _ step: @escaping @Sendable () throws -> Result?
    ) -> EventLoopFuture<Result> {
        let promise = loop.makePromise(of: Result.self)
        runSlices(tenant, lane: lane, step) { promise.completeWith($0) }
        return promise.futureResult
    }

    /// `submitSliced`, suspending (not blocking) until the result.
    package func runSliced<Result: Sendable>(
        _ tenant: String, lane: Lane = .long,
        _ step: @escaping @Sendable () throws -> Result?
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            runSlices(tenant, lane: lane, step) { continuation.resume(with: $0) }
        }
    }

    private func runSlices<Result: Sendable>(
        _ tenant: String, lane: Lane, requeued: Bool = false,
        _ step: @escaping @Sendable () throws -> Result?,
        complete: @escaping @Sendable (Swift.Result<Result, any Error>) -> Void
    ) {
        let job = Job(
            run: {
                do {
                    guard let result = try step() else {
                        return self.runSlices(tenant, lane: lane, requeued: true, step, complete: complete)
                    }
                    complete(.success(result))
                } catch {
                    complete(.failure(error))
                }
            }, refuse: { complete(.failure($0)) })
        if let refusal = enqueue(tenant, queueing(lane, sliced: true), requeued: requeued, job) {
            complete(.failure(refusal))
        }
    }

    /// Runs `work` for `tenant` ahead of its waiting jobs (a handoff to announce); run where it
    /// is when the pool has stopped.
    func urgent(_ tenant: String, _ work: @escaping @Sendable () -> Void) {
        if enqueue(tenant, .short, urgent: true, Job(run: work, refuse: { _ in })) != nil { work() }
    }

    /// Runs `work` for `tenant` and returns its result, suspending (not blocking) meanwhile.
    package func run<Result: Sendable>(
        _ tenant: String, lane: Lane = .long,
        _ work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            let job = Job(
                run: { continuation.resume(with: Swift.Result { try work() }) },
                refuse: { continuation.resume(throwing: $0) })
            if let refusal = enqueue(tenant, queueing(lane), job) { continuation.resume(throwing: refusal) }
        }
    }

    /// `run` for work that cannot fail.
    package func run<Result: Sendable>(_ tenant: String, lane: Lane = .long, _ work: @escaping @Sendable () -> Result)
        async -> Result?
    {
        try? await run(tenant, lane: lane) { () throws -> Result in work() }
    }

    /// Jobs waiting or running, for a harness to tell when everything handed off is done.
    var isIdle: Bool {
        state.withLockedValue { $0.running == 0 && $0.runningBackground == 0 && $0.isEmpty }
    }

    /// Refuses new work, fails what still waits, and stops the threads once the running jobs end.
    package func shutdown() async {
        let waiting = state.withLockedValue { state -> [Job] in
            state.stopped = true
            defer { (state.short, state.long, state.background) = (Queue(), Queue(), Queue()) }
            return [state.short, state.long, state.background].flatMap { $0.jobs.values.flatMap { Array($0) } }
        }
        for job in waiting { job.refuse(.stopped) }
        try? await pool?.shutdownGracefully()
        try? await reserved?.shutdownGracefully()
        try? await background?.shutdownGracefully()
    }
}
