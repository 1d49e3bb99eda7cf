import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs CPU-bound test work on a thread of its own and returns its result. The cooperative pool
/// has one thread per core: a property test that computes on it for seconds stalls every other
/// test of the run waiting for I/O (a PostgreSQL answer, a push), which then miss their deadlines.
/// The thread also runs at a lower priority (nice 10): on two cores, the oracles' minutes of
/// arithmetic otherwise take the CPU from the servers that the other tests are waiting on, and
/// every test of the run starts together and is timed from then.
/// Issues are recorded by the caller, on the test's task: `#expect` needs its context.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread {
            #if canImport(Glibc)
            // Linux keeps the nice value per thread; who 0 is the calling thread.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
