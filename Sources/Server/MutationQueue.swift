/// Runs admin mutations one at a time, in arrival order. A single writer matches SQLite (one
/// write transaction at a time) and lets validation see the state the previous mutation left,
/// with no interleaving across the store's await.
final class MutationQueue: Sendable {
    typealias Job = @Sendable () async -> Void

    private let continuation: AsyncStream<Job>.Continuation
    private let worker: Task<Void, Never>

    init() {
        let (stream, continuation) = AsyncStream<Job>.makeStream()
        self.continuation = continuation
        worker = Task {
            for await job in stream { await job() }
        }
    }

    /// Queues `job`; returns false once the queue has been finished.
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        if case .enqueued = continuation.yield(job) { return true }
        return false
    }

    /// Stops accepting jobs and waits for the queued ones to finish.
    func finish() async {
        continuation.finish()
        await worker.value
    }
}
