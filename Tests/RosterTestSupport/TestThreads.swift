import NIOPosix

/// Where the tests' own blocking waits run (raw sockets reading until a close, up to seconds):
/// not on NIOThreadPool.singleton, which has one thread per core (two here) and which the
/// servers under test use to open databases, take backups and write caches. Tests blocked in
/// recv() there held every in-process server's store for tens of seconds in stress runs.
public enum TestThreads {
    public static let blocking: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 32)
        pool.start()
        return pool
    }()
}
