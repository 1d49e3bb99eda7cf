import Foundation

/// Runs CPU-bound test work on a thread of its own and returns its result. The cooperative pool
/// has one thread per core: a property test that computes on it for seconds stalls every other
/// test of the run waiting for I/O (a PostgreSQL answer, a push), which then miss their deadlines.
/// Issues are recorded by the caller, on the test's task: `#expect` needs its context.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
