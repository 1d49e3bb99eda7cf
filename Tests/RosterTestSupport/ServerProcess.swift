import Foundation
import RosterClient

/// The real `roster-server` executable, started as a child process on 127.0.0.1 port 0.
public final class ServerProcess: @unchecked Sendable {
    public let process = Process()
    public let port: Int
    private let errorPipe = Pipe()

    /// The built binary: ROSTER_BIN_DIR if set, else the package's .build/debug.
    public static var binDirectory: URL {
        if let directory = ProcessInfo.processInfo.environment["ROSTER_BIN_DIR"] {
            return URL(fileURLWithPath: directory)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug")
    }

    public init(dataDirectory: String, arguments: [String] = []) throws {
        let binary = Self.binDirectory.appendingPathComponent("roster-server")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw RosterClientError.connectionFailed("\(binary.path) is missing: run `swift build` first (scripts/test does)")
        }
        process.executableURL = binary
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--data-dir", dataDirectory] + arguments
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The log line "listening on [IPv4]127.0.0.1/127.0.0.1:PORT" gives the port.
        var log = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let chunk = errorPipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
            if let line = log.split(separator: "\n").first(where: { $0.contains("listening on") }),
               let port = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                self.port = port
                // Keep draining stderr so the server never blocks on a full pipe.
                errorPipe.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
                return
            }
        }
        process.terminate()
        throw RosterClientError.connectionFailed("roster-server did not start: \(log)")
    }

    public func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    public func terminate() {
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        errorPipe.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { kill9() }
    }
}
