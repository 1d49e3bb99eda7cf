import Foundation

/// Counts a process's instructions in one function with valgrind's callgrind: the stable
/// figure for what a push costs per subscriber, since a count does not move with whatever
/// else the machine is doing (CPU time on this shared machine varies by 15 % between runs).
/// Collection is on only while that function runs (`--toggle-collect`), so the count is the
/// function's, with everything it calls in user space; the kernel's share (the socket write
/// itself) is not counted.
struct Callgrind {
    /// The valgrind executable (3.24 or later reads the toolchain's DWARF 5).
    var valgrind: String
    /// A pattern (`*` for any characters) of the function's mangled name.
    var function: String
    let outputFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("roster-bench-callgrind-\(UUID().uuidString).out").path

    /// The fan-out loop of roster-server: every subscriber's write and each connection's flush.
    static func fanOut(valgrind: String) -> Callgrind {
        Callgrind(valgrind: valgrind, function: "*10LoopFanoutC6fanOut*")
    }
    /// The floor's loop of write() calls.
    static func floor(valgrind: String) -> Callgrind {
        Callgrind(valgrind: valgrind, function: "*16FloorBroadcasterO9broadcast*")
    }

    /// The command that runs `executable` with `arguments` under callgrind.
    func wrapping(_ executable: URL, _ arguments: [String]) -> (executable: URL, arguments: [String]) {
        (
            URL(fileURLWithPath: valgrind),
            [
                "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(function)",
                "--callgrind-out-file=\(outputFile)",
                "--log-file=/dev/null", executable.path,
            ] + arguments
        )
    }

    /// The instructions counted, once the process has exited (callgrind writes at exit). The
    /// output file stays for `callgrind_annotate --inclusive=yes FILE`.
    func instructions() throws -> UInt64 {
        guard let text = try? String(contentsOfFile: outputFile, encoding: .utf8) else {
            throw BenchError("callgrind wrote no \(outputFile): did the process exit?")
        }
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            if let count = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }) { return count }
        }
        throw BenchError("no totals in \(outputFile)")
    }
}
