import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The one way Roster writes a file it must not lose or tear: the bytes go to a temporary file
/// in the same directory, created with its final mode (never briefly readable by others),
/// fsynced, renamed over the old file, then the directory is fsynced. A crash leaves the old
/// file or the new one, never a mix.
///
/// Blocking file work: async code calls it from a thread of its own (NIOThreadPool), not from
/// the concurrency pool. (Foundation's `.atomic` writes are not used: on Linux they leave a
/// `TemporaryDirectory.*` behind in /tmp for every write.)
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `bytes` to `path`, creating the parent directory (mode 0700) if needed.
    public static func write(_ bytes: some Collection<UInt8>, to path: String, mode: mode_t = 0o600) throws(WriteError)
    {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw WriteError(path: path, reason: "cannot create \(directory)")
        }
        let temporary = directory + "/.\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let contiguous = Array(bytes)
        var written = 0
        while written < contiguous.count {
            let count = contiguous[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw WriteError(path: path, reason: reason)
            }
            written += count
        }
        fchmod(fd, mode)
        let synced = fsync(fd)
        close(fd)
        guard synced == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
        let directoryFD = open(directory, O_RDONLY)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    public static func write(_ text: String, to path: String, mode: mode_t = 0o600) throws(WriteError) {
        try write(Array(text.utf8), to: path, mode: mode)
    }
}
