import NIOConcurrencyHelpers
import RosterStore

/// Records delivery outcomes in batches (group commit): the outcomes that arrive while one batch
/// commits go into the next, in one transaction. Every commit of the store syncs to disk, so a
/// handoff that reaches ten thousand subscriptions costs a few dozen syncs, not ten thousand;
/// each caller still returns only once its own outcome is committed (or has failed), and learns
/// whether its webhook has more to deliver.
final class AttemptRecorder: Sendable {
    typealias Entry = (attempt: DeliveryAttempt, outcome: DeliveryOutcome)
    /// The most outcomes one transaction writes (a bound on how long it holds the store).
    static let batchLimit = 512

    private struct Waiting {
        var entries: [(Entry, CheckedContinuation<Result<Bool, any Error>, Never>)] = []
        var writing = false
    }

    private let store: any NotificationStore
    private let waiting = NIOLockedValueBox(Waiting())

    init(store: any NotificationStore) { self.store = store }

    /// Whether, once committed, the attempt's webhook still has an event to deliver (the next
    /// queued, or this one to retry or hold).
    func record(_ attempt: DeliveryAttempt, outcome: DeliveryOutcome) async throws -> Bool {
        let recorded: Result<Bool, any Error> = await withCheckedContinuation { continuation in
            let startWriter = waiting.withLockedValue { waiting in
                waiting.entries.append(((attempt, outcome), continuation))
                guard !waiting.writing else { return false }
                waiting.writing = true
                return true
            }
            if startWriter { Task { await self.write() } }
        }
        return try recorded.get()
    }

    /// Commits batches until none is waiting.
    private func write() async {
        while true {
            let batch = waiting.withLockedValue { waiting in
                let taken = Array(waiting.entries.prefix(Self.batchLimit))
                waiting.entries.removeFirst(taken.count)
                if taken.isEmpty { waiting.writing = false }
                return taken
            }
            guard !batch.isEmpty else { return }
            do {
                let pending = try await store.recordAttempts(batch.map(\.0))
                for (entry, continuation) in batch {
                    continuation.resume(returning: .success(pending.contains(entry.attempt.webhookID)))
                }
            } catch {
                for (_, continuation) in batch { continuation.resume(returning: .failure(error)) }
            }
        }
    }
}
