import Foundation
import NIOPosix

/// Backups kept in a directory of their own, as a scheduled job writes them: each named for its
/// instant (`roster-20261128T020000Z.sqlite`, so names sort in time order), the oldest removed
/// once more than `keep` are there. A new backup is written and checked before anything is
/// removed, and only files with that name form are ever removed: whatever else the directory
/// holds stays.
public enum BackupRotation {
    public static let keepRange = 1...1_000

    /// What one rotation did.
    public struct Outcome: Sendable, Equatable {
        public var written: String
        public var summary: StoreBackup.Summary
        public var removed: [String]
    }

    /// "roster-YYYYMMDDTHHMMSSZ.sqlite", in UTC.
    public static func fileName(at instant: Date) -> String {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "roster-%04d%02d%02dT%02d%02d%02dZ.sqlite", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Whether `name` is one of this rotation's files.
    public static func isBackupName(_ name: String) -> Bool {
        let digits = name.utf8.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        return name.utf8.count == "roster-20260101T000000Z.sqlite".utf8.count && name.hasPrefix("roster-")
            && name.hasSuffix("Z.sqlite") && digits == 14 && name.dropFirst(15).hasPrefix("T")
    }

    /// Writes a backup of `databasePath` into `directory` (made if missing, 0700), checks it, then
    /// removes the oldest of the rotation's files beyond `keep`.
    public static func backup(
        databasePath: String, into directory: String, keep: Int, now: Date = Date()
    ) async throws -> Outcome {
        precondition(keepRange.contains(keep), "keep is checked by the caller")
        try await NIOThreadPool.singleton.runIfActive {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let written = (directory as NSString).appendingPathComponent(fileName(at: now))
        try await StoreBackup.backup(databasePath: databasePath, to: written)
        let summary = try await StoreBackup.check(written)
        let removed = try await NIOThreadPool.singleton.runIfActive {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter(isBackupName).sorted()
            let surplus = Array(names.dropLast(keep))
            for name in surplus {
                try FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
            }
            return surplus
        }
        return Outcome(written: written, summary: summary, removed: removed)
    }
}
