import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Where Roster keeps per-user files, following the XDG base directory convention.
public enum XDGPaths {
    /// `$XDG_CONFIG_HOME/roster/NAME`, or `~/.config/roster/NAME`.
    public static func config(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        base("XDG_CONFIG_HOME", fallback: ".config", environment: environment).appendingPathComponent("roster/\(name)")
    }

    /// `$XDG_CACHE_HOME/roster`, or `~/.cache/roster`.
    public static func cache(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        base("XDG_CACHE_HOME", fallback: ".cache", environment: environment).appendingPathComponent("roster")
    }

    private static func base(_ variable: String, fallback: String, environment: [String: String]) -> URL {
        if let value = environment[variable], !value.isEmpty { return URL(fileURLWithPath: value) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(fallback)
    }
}

public enum ProcessLimits {
    /// Raises the open-file limit to the hard limit: every subscriber is a descriptor, and the
    /// soft limit is often 1,024.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Marks every open descriptor from 3 on close-on-exec, so that a child process started next
/// inherits only standard input, output and error (and what it is given with dup2, which
/// clears the flag). SwiftNIO opens its sockets without close-on-exec, and a child that kept a
/// copy would hold a server's port or a connection open for as long as it lives.
public func markDescriptorsCloseOnExec() {
    guard let directory = opendir("/proc/self/fd") else { return }
    defer { closedir(directory) }
    let own = dirfd(directory)
    while let entry = readdir(directory) {
        // Read the name in place: the kernel packs entries, so the last one's 256-byte d_name
        // may run past the end of readdir's buffer, and copying the whole field (as
        // `entry.pointee.d_name` would) can fault on the page after it.
        let name = String(
            cString: UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                .assumingMemoryBound(to: CChar.self))
        guard let fd = Int32(name), fd >= 3, fd != own else { continue }
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }
}

public enum ThreadPriority {
    /// Lowers the calling thread's scheduling priority to `niceness` (0 to 19; higher yields
    /// more): long work then gives way to short requests and the event loops when the cores are
    /// busy, and still uses them when they are idle. Only ever lowered: an unprivileged process
    /// cannot raise it again, so a thread that calls this keeps it. Linux only; a no-op elsewhere.
    public static func lowerCurrentThread(to niceness: Int32) {
        #if os(Linux)
            // On Linux the nice value is the thread's, and 0 names the calling one (setpriority(2)).
            guard current < niceness else { return }
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }

    /// The calling thread's niceness (0 where it cannot be read).
    public static var current: Int32 {
        #if os(Linux)
            errno = 0
            let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            return errno == 0 ? current : 0
        #else
            return 0
        #endif
    }
}
