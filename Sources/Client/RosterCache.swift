import Foundation
import RosterDomain
import NIOConcurrencyHelpers
import NIOPosix
import RosterProtocol
import RosterSystem
#if canImport(Glibc)
    import Glibc
#endif

/// The last synced roster of one server and tenant, as kept on disk.
public struct CachedRoster: Sendable {
    public var state: RosterState
    public var epoch: UInt64
    public var revision: UInt64
    /// When this data was last known to match the server (the last Synced or live event).
    public var syncedAt: Date

    public init(state: RosterState, epoch: UInt64, revision: UInt64, syncedAt: Date) {
        self.state = state
        self.epoch = epoch
        self.revision = revision
        self.syncedAt = syncedAt
    }

    /// Who is on duty at `instant`, computed from the cached plan by the shared engine.
    public func onDuty(at instant: UnixMillis = .now) -> OnDutyLookup {
        state.onDuty(at: instant) ?? OnDutyLookup(at: instant, current: [], until: nil, next: [])
    }

    /// How old the data is.
    public func age(now: Date = Date()) -> TimeInterval { max(0, now.timeIntervalSince(syncedAt)) }
}

/// Why a cache file was not used.
public enum CacheProblem: Error, Sendable, CustomStringConvertible, Equatable {
    case unreadable(String)
    case corrupt(String)

    public var description: String {
        switch self {
        case .unreadable(let why): return "the cache could not be read: \(why)"
        case .corrupt(let why): return "the cache file is corrupt and was ignored: \(why)"
        }
    }
}

/// One cache file. Layout (big-endian):
///
///     "RSTRCAC2" | u64 synced_at_ms | u64 epoch | u64 revision | u32 crc32(body) | u32 body_length
///     | body (Snapshot protobuf)
///
/// The epoch and revision in the header let a one-shot read tell whether the cache is current
/// without decoding it. Files of the first layout ("RSTRCAC1" | synced_at | crc | length | body)
/// still load; the next save writes the new one.
///
/// Writes go to a temporary file that is fsynced, then renamed over the old one, then the
/// directory is fsynced: a crash leaves the old file or the new one, never a mix. The checksum
/// catches a torn or corrupted file anyway, which is then ignored, never trusted.
public struct RosterCacheFile: Sendable {
    public let url: URL
    static let magic = Array("RSTRCAC2".utf8)
    static let firstMagic = Array("RSTRCAC1".utf8)
    static let headerSize = 40

    /// What the header says, read without the body.
    public struct Header: Sendable, Equatable {
        public var syncedAt: Date
        public var epoch: UInt64
        public var revision: UInt64
    }

    public init(url: URL) { self.url = url }

    /// The cache file for one server and tenant under `directory`. `tenant` is the tenant the
    /// server authenticated (Welcome), so two credentials never share or swap a cache.
    public init(directory: URL, server: String, tenant: String) {
        let safe = "\(server)-\(tenant.isEmpty ? "default" : tenant)".map {
            $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_"
        }
        self.init(url: directory.appendingPathComponent(String(safe) + ".cache"))
    }

    /// The default cache directory: $XDG_CACHE_HOME/roster, or ~/.cache/roster.
    public static var defaultDirectory: URL { XDGPaths.cache() }

    /// The header of a file of the current layout; nil when there is no file, or it is of the
    /// first layout or too short to tell (`load` says why). Blocks: call it off the pool.
    public func header() -> Header? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.headerSize), data.count == Self.headerSize else { return nil }
        let bytes = [UInt8](data)
        guard Array(bytes[0..<8]) == Self.magic else { return nil }
        return Header(
            syncedAt: Date(timeIntervalSince1970: Double(Self.read(UInt64.self, bytes, at: 8)) / 1000),
            epoch: Self.read(UInt64.self, bytes, at: 16), revision: Self.read(UInt64.self, bytes, at: 24))
    }

    /// The cached roster; nil when there is no file. Throws `CacheProblem` for a bad one.
    public func load() throws(CacheProblem) -> CachedRoster? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .unreadable("\(error.localizedDescription)") }
        let bytes = [UInt8](data)
        guard bytes.count >= 8 else { throw .corrupt("not a roster cache file") }
        let magic = Array(bytes[0..<8])
        let first = magic == Self.firstMagic
        guard first || magic == Self.magic else { throw .corrupt("not a roster cache file") }
        let headerSize = first ? 24 : Self.headerSize
        guard bytes.count >= headerSize else { throw .corrupt("not a roster cache file") }
        let syncedAt = Self.read(UInt64.self, bytes, at: 8)
        let checksum = Self.read(UInt32.self, bytes, at: headerSize - 8)
        let length = Int(Self.read(UInt32.self, bytes, at: headerSize - 4))
        guard bytes.count == headerSize + length else {
            throw .corrupt("expected \(headerSize + length) bytes, found \(bytes.count)")
        }
        let body = Array(bytes[headerSize...])
        guard CRC32.checksum(body) == checksum else { throw .corrupt("checksum mismatch") }
        guard let snapshot = try? Roster_V1_Snapshot(serializedBytes: body) else {
            throw .corrupt("the body does not decode")
        }
        if !first,
            Self.read(UInt64.self, bytes, at: 16) != snapshot.epoch
                || Self.read(UInt64.self, bytes, at: 24) != snapshot.revision
        {
            throw .corrupt("the header's revision does not match the body")
        }
        return CachedRoster(
            state: RosterState(snapshot), epoch: snapshot.epoch, revision: snapshot.revision,
            syncedAt: Date(timeIntervalSince1970: Double(syncedAt) / 1000))
    }

    /// Writes atomically and durably.
    public func save(_ roster: CachedRoster) throws {
        let body: [UInt8] = try Roster_V1_Snapshot(roster.state, epoch: roster.epoch, revision: roster.revision)
            .serializedBytes()
        var bytes = Self.magic
        Self.append(UInt64(max(0, roster.syncedAt.timeIntervalSince1970 * 1000)), to: &bytes)
        Self.append(roster.epoch, to: &bytes)
        Self.append(roster.revision, to: &bytes)
        Self.append(CRC32.checksum(body), to: &bytes)
        Self.append(UInt32(body.count), to: &bytes)
        bytes += body

        do {
            try AtomicFile.write(bytes, to: url.path)
        } catch {
            throw CacheProblem.unreadable(error.description)
        }
    }

    /// Sets the header's `synced_at` in place: the body (and its checksum) stay as they are. An
    /// 8-byte aligned write inside the first block lands whole; the age is not checksummed, so
    /// at worst a crash leaves the older age. Blocks: call it off the concurrency pool.
    public func touch(syncedAt: Date) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        Self.append(UInt64(max(0, syncedAt.timeIntervalSince1970 * 1000)), to: &bytes)
        try handle.seek(toOffset: 8)
        try handle.write(contentsOf: bytes)
    }

    private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        bytes[offset..<offset + MemoryLayout<T>.size].reduce(T(0)) { $0 << 8 | T($1) }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        for shift in stride(from: (MemoryLayout<T>.size - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}

/// CRC-32 (IEEE 802.3, the zlib polynomial), for detecting torn cache files.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}

/// The cache directory, and which tenant each credential opened on each server, as the server
/// said in Welcome. A cache belongs to the authenticated tenant, never to a `--tenant` flag: a
/// token of one tenant can never be shown another tenant's cached roster.
///
/// The index (`tenants`, one "server credential tenant" line each) holds no secret: a token is
/// named by its id (`rst_<id>_...`), never by its secret.
public struct RosterCacheDirectory: Sendable {
    public let url: URL

    public init(_ url: URL) { self.url = url }

    /// How a credential is named in the index: the token's id, or "anonymous:TENANT".
    public static func credential(token: String, requestedTenant: String) -> String {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        if token.isEmpty { return "anonymous:" + requestedTenant }
        if parts.count == 3, parts[0] == "rst", !parts[1].isEmpty { return "token:" + parts[1] }
        // Not our token form: a hash, so the index never holds the secret itself.
        return "token-fnv:" + String(StableHash.fnv1a(token), radix: 16)
    }

    private var index: URL { url.appendingPathComponent("tenants") }

    /// The tenant this credential last authenticated as on `server`.
    public func tenant(server: String, credential: String) -> String? {
        guard let text = try? String(contentsOf: index, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").reversed().lazy.compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == server, fields[1] == credential else { return nil }
            return String(fields[2])
        }.first
    }

    /// Records the tenant a credential opened (blocking: a small atomic write).
    public func remember(server: String, credential: String, tenant: String) throws {
        guard self.tenant(server: server, credential: credential) != tenant else { return }
        let kept = ((try? String(contentsOf: index, encoding: .utf8)) ?? "").split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            return !(fields.count == 3 && fields[0] == server && fields[1] == credential)
        }
        try AtomicFile.write(
            (kept + ["\(server) \(credential) \(tenant)"]).joined(separator: "\n") + "\n", to: index.path)
    }

    /// The cache file for a credential: its authenticated tenant's, when known. An anonymous
    /// reader not yet seen falls back to the file of the tenant it asks for (as caches of
    /// earlier releases were named); a token not yet seen has none.
    public func file(server: String, credential: String) -> RosterCacheFile? {
        if let tenant = tenant(server: server, credential: credential) {
            return RosterCacheFile(directory: url, server: server, tenant: tenant)
        }
        guard credential.hasPrefix("anonymous:") else { return nil }
        return RosterCacheFile(directory: url, server: server, tenant: String(credential.dropFirst("anonymous:".count)))
    }

    public func file(server: String, tenant: String) -> RosterCacheFile {
        RosterCacheFile(directory: url, server: server, tenant: tenant)
    }
}

/// Writes the cache off the concurrency pool (a write ends in fsync, which blocks): one write at
/// a time on a thread of NIOThreadPool, always of the newest roster asked for; a roster
/// superseded before its turn is never written.
final class CacheWriter: Sendable {
    private typealias Write = (roster: CachedRoster, file: RosterCacheFile, failed: @Sendable (any Error) -> Void)
    private struct State {
        var pending: Write?
        var writing = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = NIOLockedValueBox(State())

    func save(_ roster: CachedRoster, to file: RosterCacheFile, failed: @escaping @Sendable (any Error) -> Void) {
        let start = state.withLockedValue { state -> Bool in
            state.pending = (roster, file, failed)
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        if start { NIOThreadPool.singleton.submit { _ in self.drain() } }
    }

    private func drain() {
        while true {
            let next = state.withLockedValue { state -> Write? in
                if let pending = state.pending {
                    state.pending = nil
                    return pending
                }
                state.writing = false
                return nil
            }
            guard let next else { break }
            do { try next.file.save(next.roster) } catch { next.failed(error) }
        }
        let waiters = state.withLockedValue { state in
            guard !state.writing else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once nothing is pending or being written.
    func flush() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLockedValue { state in
                if !state.writing { return true }
                state.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }
}
