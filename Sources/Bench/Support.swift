import Foundation
import NIOCore
import RosterClient
import RosterProtocol
#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic nanoseconds.
@inline(__always) func nanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Percentiles over nanosecond samples, reported in milliseconds.
package struct LatencySummary: CustomStringConvertible {
    package var count: Int
    package var p50: Double
    package var p99: Double
    package var max: Double

    package init(_ samples: [UInt64]) {
        let sorted = samples.sorted()
        func at(_ q: Double) -> Double {
            sorted.isEmpty ? 0 : Double(sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))]) / 1e6
        }
        count = sorted.count
        p50 = at(0.5)
        p99 = at(0.99)
        max = at(1.0)
    }

    package var description: String {
        String(format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms  (n=%d)", p50, p99, max, count)
    }
}

/// Resident memory of a process in bytes, from /proc/PID/status (VmRSS).
package func residentBytes(pid: Int32, peak: Bool = false) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(peak ? "VmHWM:" : "VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
}

/// Starts a process's peak resident memory (`residentBytes(pid:peak:)`) afresh from what it
/// holds now (proc(5), clear_refs); false where that cannot be done.
package func resetResidentPeak(pid: Int32) -> Bool {
    (try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)) != nil
}

/// CPU time (user + system) a process has used so far, in milliseconds, from /proc/PID/stat
/// (clock ticks, usually 10 ms each: measure over many pushes, not one).
package func cpuMillis(pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return 0 }
    // Fields after "(comm)": state is field 3, utime field 14, stime field 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// Calls `body` with 127.0.0.1:`port` as a `sockaddr` for bind, connect or getsockname.
@discardableResult
func withLoopbackAddress(port: Int, _ body: (UnsafeMutablePointer<sockaddr>, inout socklen_t) -> Int32) -> (
    result: Int32, port: Int
) {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) }
    }
    return (result, Int(UInt16(bigEndian: address.sin_port)))
}

/// A free TCP port on 127.0.0.1.
package func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    return withLoopbackAddress(port: 0) { address, length in
        _ = bind(fd, address, length)
        return getsockname(fd, address, &length)
    }.port
}

/// A child process (the server under test, or the floor broadcaster).
// @unchecked: Foundation's Process is not Sendable; the bench starts and stops it from one task.
package final class ChildProcess: @unchecked Sendable {
    package let process = Process()

    package init(executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.run()
    }

    package var pid: Int32 { process.processIdentifier }

    package func stop() {
        if process.isRunning { kill(pid, SIGKILL) }
    }

    /// SIGTERM, then up to `seconds` for the process to exit (a profiler writes its output
    /// then), then SIGKILL.
    package func terminate(waitingUpTo seconds: Double) {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        stop()
    }

    deinit { stop() }
}

/// The path of an executable given by path, or by name on PATH; nil when there is none.
package func executablePath(_ nameOrPath: String) -> String? {
    let files = FileManager.default
    if nameOrPath.contains("/") { return files.isExecutableFile(atPath: nameOrPath) ? nameOrPath : nil }
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return directories.map { "\($0)/\(nameOrPath)" }.first { files.isExecutableFile(atPath: $0) }
}

/// Waits until something accepts connections on the port; fails at once when `process`, the one
/// meant to listen there, has exited.
package func waitForListener(port: Int, timeout: Double = 30, process: ChildProcess? = nil) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if let process, !process.process.isRunning {
            throw BenchError(
                "\(process.process.executableURL?.lastPathComponent ?? "the process") exited "
                    + "(status \(process.process.terminationStatus)) before it listened on port \(port)")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let result = withLoopbackAddress(port: port) { address, length in connect(fd, address, length) }.result
        close(fd)
        if result == 0 { return }
        usleep(50_000)
    }
    throw BenchError("nothing listens on port \(port)")
}

package struct BenchError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A roster-server process on a free loopback port in a fresh data directory, with an admin
/// connection to its default tenant: what the benchmarks that change a tenant start with.
/// `stop` kills it and removes the directory.
package struct BenchServer {
    package let process: ChildProcess
    package let directory: String
    package let port: Int
    package let admin: RosterConnection

    /// `arguments` come after the listener, data directory and quiet defaults (no HTTP, no pings).
    package static func start(_ executable: URL, arguments: [String] = []) async throws -> BenchServer {
        let port = freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "roster-bench-\(UUID().uuidString)"
        ).path
        let process = try ChildProcess(
            executable: executable,
            arguments: [
                "serve", "--listen", "127.0.0.1:\(port)", "--http-listen", "none", "--data-dir", directory,
                "--log-level", "warning", "--ping-interval-ms", "3600000", "--shutdown-grace-ms", "0",
            ] + arguments)
        do {
            try waitForListener(port: port, process: process)
            let admin = try await RosterConnection.connect(
                host: "127.0.0.1", port: port,
                hello: .with { $0.token = (try? adminToken(dataDirectory: directory)) ?? "" })
            return BenchServer(process: process, directory: directory, port: port, admin: admin)
        } catch {
            process.stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    package func stop() async {
        await admin.close()
        kill()
    }

    /// Without closing the connection first: for a `defer`.
    package func kill() {
        process.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
