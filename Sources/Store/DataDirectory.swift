import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import RosterDomain
import RosterSystem

/// The server's data directory: the database, the initial admin token and the generated TLS
/// files. The directory is mode 0700 and every file the server writes in it 0600, so other
/// users of the host can read neither the plan nor a secret.
public struct DataDirectory: Sendable, Hashable {
    public let path: String

    public init(_ path: String) { self.path = path }

    public var database: String { path + "/roster.sqlite" }
    public var adminToken: String { path + "/admin.token" }
    public var tls: String { path + "/tls" }
    /// The key webhook secrets are sealed with (`SecretSealer`).
    public var secretsKey: String { path + "/secrets.key" }

    /// Whether a database has been created here (by a server that started on it).
    public var hasDatabase: Bool { FileManager.default.fileExists(atPath: database) }

    /// Present while webhook deliveries are paused: `restore` writes it, so a restored copy does
    /// not send production's webhooks again until someone says it is the one in use.
    public var deliveriesPausedMarker: String { path + "/deliveries.paused" }
    public var deliveriesPaused: Bool { FileManager.default.fileExists(atPath: deliveriesPausedMarker) }

    /// The file a running server holds a lock on (`lock()`).
    public var lockFile: String { path + "/roster.lock" }

    /// Creates the directory if it does not exist, and makes it 0700 either way.
    public func create() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw DataDirectoryError.notADirectory(path)
        }
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    }
}

public enum DataDirectoryError: Error, CustomStringConvertible, Equatable {
    case noDatabase(String)
    case notADirectory(String)
    /// Another process holds the directory's lock: a server running on it (its PID when known).
    case inUse(String, pid: Int32?)

    public var description: String {
        switch self {
        case .noDatabase(let path):
            return "no Roster database in \(path) (check --data-dir; a server creates it at first start)"
        case .notADirectory(let path):
            return "\(path) is a file, not a directory (--data-dir names the directory the server keeps its data in)"
        case .inUse(let path, let pid):
            let who = pid.map { "a roster-server (PID \($0))" } ?? "another roster-server"
            return
                "\(path) is in use by \(who): one process owns a data directory; stop it first, or use another --data-dir"
        }
    }
}

/// The lock one process holds on a data directory while it uses it (a running server, a
/// restore), so that a second server, or a restore under a running one, is refused instead of
/// losing what the first acknowledges. An advisory `flock` on `roster.lock`, which names the
/// holder's PID; the kernel releases it when the process ends, however it ends.
public final class DataDirectoryLock: Sendable {
    private let descriptor: NIOLockedValueBox<Int32?>

    /// Takes the lock, creating the directory if needed. Blocking file work (brief).
    public init(_ directory: DataDirectory) throws {
        try directory.create()
        let descriptor = open(directory.lockFile, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: directory.lockFile])
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var text = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &text, text.count, 0)
            close(descriptor)
            let pid =
                count > 0
                ? Int32(String(decoding: text[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
                : nil
            throw DataDirectoryError.inUse(directory.path, pid: pid)
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = NIOLockedValueBox(descriptor)
    }

    /// Gives the lock back (also when the process ends). Once.
    public func release() {
        if let descriptor = descriptor.withLockedValue({ value -> Int32? in
            defer { value = nil }; return value
        }) {
            close(descriptor)
        }
    }

    deinit { release() }
}

/// Files the server writes (every one mode 0600). Blocking: call from a thread of its own
/// (NIOThreadPool), never from an async function directly.
package enum PrivateFile {
    package static func write(_ text: String, to path: String) throws {
        try AtomicFile.write(text, to: path, mode: 0o600)
    }

    /// Creates an empty file with `mode` unless it exists (SQLite then gives its -wal and -shm
    /// files the same mode).
    package static func createEmpty(_ path: String, mode: mode_t = 0o600) throws {
        let descriptor = open(path, O_CREAT | O_WRONLY, mode)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        close(descriptor)
    }
}
