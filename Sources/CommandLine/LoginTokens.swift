import Foundation
import NIOPosix
import RosterSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Where `roster-client login` keeps its login (docs/SSO.md): one file per server,
/// `$XDG_CONFIG_HOME/roster/tokens/HOST_PORT`, 0600 in a 0700 directory, JSON with the token (an
/// hour's), its expiry, the refresh secret and the web app it came from. A saved login is used
/// only for the server it was got from, and renewed only through that web app: a credential
/// never goes to a host it was not given for.
public enum LoginTokens {
    /// What the file holds. A file of an older roster-client holds the bare token: read as one
    /// without expiry or refresh.
    public struct Saved: Codable, Sendable, Equatable {
        public var token: String
        /// Unix milliseconds.
        public var expiresAt: Int64?
        public var refresh: String?
        public var web: String?

        /// The login's id (the refresh secret's public part): what the cache knows it by, as its
        /// token changes every hour.
        public var loginID: String? {
            let parts = refresh?.split(separator: "_") ?? []
            return parts.count == 3 ? String(parts[1]) : nil
        }
    }

    /// A token is renewed when it has less than this left.
    static let renewBefore: Int64 = 60_000
    /// How long a roster-client waits for another one renewing the same login.
    static let lockWait: Duration = .seconds(30)

    public static func file(server: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL
    {
        let name = server.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        return XDGPaths.config("tokens/" + String(name), environment: environment)
    }

    /// The saved login for `server`, if there is one.
    public static func read(server: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Saved?
    {
        guard let data = try? Data(contentsOf: file(server: server, environment: environment)), data.count <= 16_384
        else { return nil }
        if data.first == UInt8(ascii: "{") {
            guard let saved = try? JSONDecoder().decode(Saved.self, from: data), !saved.token.isEmpty else {
                return nil
            }
            return saved
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : Saved(token: token)
    }

    /// Writes `saved` whole (a reader sees the old file or the new one). Blocking.
    static func write(_ saved: Saved, server: String, environment: [String: String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(Array(try encoder.encode(saved)), to: file(server: server, environment: environment).path)
    }

    /// What renewing gave.
    public enum Current: Sendable, Equatable {
        /// The token to use: the saved one, or a renewed one now saved.
        case token(String)
        /// Renewal failed: the token as saved, and why (said once to the person).
        case stale(String, problem: String)
        case none
    }

    /// The saved login's token for `server`, renewed first when it has less than a minute left.
    /// Two roster-clients renewing one login would spend its refresh secret twice (and end the
    /// login, as a copied secret does), so renewal holds an exclusive lock on `FILE.lock` and
    /// reads the file again inside it: the second finds the first's new token.
    public static func current(
        server: String, caFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Current {
        let readFile = {
            try? await NIOThreadPool.singleton.runIfActive { read(server: server, environment: environment) }
        }
        guard let saved = await readFile() ?? nil else { return .none }
        guard needsRenewal(saved) else { return .token(saved.token) }
        let lockPath = file(server: server, environment: environment).path + ".lock"
        guard let lock = await FileLock.acquire(lockPath, within: lockWait) else {
            return .stale(saved.token, problem: "another roster-client holds \(lockPath)")
        }
        defer { lock.release() }
        guard let fresh = await readFile() ?? nil else { return .none }
        guard needsRenewal(fresh), let refresh = fresh.refresh, let web = fresh.web else { return .token(fresh.token) }
        do {
            let client = try SourceHTTPClient(base: web, headers: [], caFile: caFile, timeout: .seconds(20))
            let body = try JSONSerialization.data(withJSONObject: ["refresh_token": refresh])
            let answer = try await client.send(.post("/sign-in/cli/refresh", body: body))
            let fields = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:]
            guard answer.status == 200, let token = fields["token"] as? String,
                let newRefresh = fields["refresh_token"] as? String
            else {
                let why =
                    fields["error"] as? String == "invalid_grant"
                    ? "the login has ended (revoked, expired or used elsewhere): run roster-client login"
                    : "\(web) did not renew the login (HTTP \(answer.status))"
                return .stale(fresh.token, problem: why)
            }
            let renewed = Saved(
                token: token, expiresAt: (fields["expires_at_ms"] as? NSNumber)?.int64Value, refresh: newRefresh,
                web: web)
            try await NIOThreadPool.singleton.runIfActive {
                try write(renewed, server: server, environment: environment)
            }
            return .token(token)
        } catch {
            return .stale(fresh.token, problem: "cannot renew the login through \(web): \(error)")
        }
    }

    private static func needsRenewal(_ saved: Saved) -> Bool {
        guard let expiresAt = saved.expiresAt, saved.refresh != nil else { return false }
        return expiresAt - Int64(Date().timeIntervalSince1970 * 1000) < renewBefore
    }
}

/// An exclusive `flock` on a file of its own, taken without blocking a thread: tried again every
/// 50 ms until `within` has passed.
struct FileLock {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    static func acquire(_ path: String, within wait: Duration) async -> FileLock? {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        let deadline = ContinuousClock.now + wait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK, ContinuousClock.now < deadline else {
                close(descriptor)
                return nil
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return FileLock(descriptor: descriptor)
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
