import Foundation
import RosterClient
import RosterDomain
import RosterTLS
import RosterSystem

/// Connection settings of a roster-client invocation: command-line flags beat environment
/// variables, which beat the config file, which beats the defaults.
public struct ClientSettings: Sendable, Equatable {
    public var server = "127.0.0.1:7400"
    public var token = ""
    public var tenant = ""
    public var cacheDirectory: URL = RosterCacheFile.defaultDirectory
    public var useUTC = false
    /// Connect over TLS. Implied by a CA file or a pinned CA for the server.
    public var tls = false
    public var caFile: String?
    public var knownHosts = KnownHosts()
    /// How long connecting and each request may take (`--timeout`, ROSTER_TIMEOUT, `timeout =`).
    public var timeout: Duration = .seconds(10)
    /// A vCard file whose people are marked in listings (`--contacts`, ROSTER_CONTACTS, `contacts =`).
    public var contactsFile: String?
    /// The id of the `roster-client login` whose token this is: renewed before each connection.
    public var loginID: String?

    /// Values given on the command line; nil where a flag was not given.
    public struct Flags: Sendable {
        public var server: String?
        public var token: String?
        public var tokenFile: String?
        public var tenant: String?
        public var cacheDirectory: String?
        public var utc: Bool
        public var tls: Bool
        public var caFile: String?
        public var timeout: String?
        public var contactsFile: String?

        public init(
            server: String? = nil, token: String? = nil, tokenFile: String? = nil, tenant: String? = nil,
            cacheDirectory: String? = nil, utc: Bool = false, tls: Bool = false, caFile: String? = nil,
            timeout: String? = nil, contactsFile: String? = nil
        ) {
            self.timeout = timeout
            self.contactsFile = contactsFile
            self.tls = tls
            self.caFile = caFile
            self.server = server
            self.token = token
            self.tokenFile = tokenFile
            self.tenant = tenant
            self.cacheDirectory = cacheDirectory
            self.utc = utc
        }
    }

    public enum Problem: Error, CustomStringConvertible, Equatable {
        case badServer(String)
        case unreadableTokenFile(String)
        case emptyTokenFile(String)
        case badConfigLine(file: String, line: Int, text: String)
        case badTimeout(String)

        public var description: String {
            switch self {
            case .badServer(let text):
                return text.contains("://")
                    ? "the server must be HOST:PORT, without a scheme (got \"\(text)\")"
                    : "the server must be HOST:PORT, or several nodes as HOST:PORT,HOST:PORT (got \"\(text)\")"
            case .unreadableTokenFile(let path): return "cannot read the token file \(path)"
            case .emptyTokenFile(let path):
                return
                    "the token file \(path) is empty: put the token in it (`roster-server token create ...` prints one), "
                    + "or leave out --token-file to connect without a token"
            case .badConfigLine(let file, let line, let text):
                return "\(file):\(line): expected key = value, got \"\(text)\""
            case .badTimeout(let text): return "--timeout takes a duration such as 10s, 500ms or 2m (got \"\(text)\")"
            }
        }
    }

    /// $XDG_CONFIG_HOME/roster/config, or ~/.config/roster/config.
    public static func defaultConfigFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGPaths.config("config", environment: environment)
    }

    /// Resolves settings. The config file holds `key = value` lines (`server`, `token`,
    /// `token-file`, `tenant`, `cache-dir`, `utc`, `tls`, `ca-file`, `timeout`, `contacts`); `#`
    /// starts a comment.
    public static func resolve(
        flags: Flags, environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: URL? = nil
    ) throws(Problem) -> ClientSettings {
        let file = configFile ?? defaultConfigFile(environment: environment)
        let config = try readConfig(file)
        func pick(_ flag: String?, _ variable: String, _ key: String) -> String? {
            flag ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? config[key]
        }
        var settings = ClientSettings()
        if let server = pick(flags.server, "ROSTER_SERVER", "server") { settings.server = server }
        guard settings.hostAndPort != nil else { throw .badServer(settings.server) }
        if let tenant = pick(flags.tenant, "ROSTER_TENANT", "tenant") { settings.tenant = tenant }
        if let timeout = pick(flags.timeout, "ROSTER_TIMEOUT", "timeout") {
            guard let duration = DurationText.parse(timeout) else { throw .badTimeout(timeout) }
            settings.timeout = duration
        }
        if let directory = pick(flags.cacheDirectory, "ROSTER_CACHE_DIR", "cache-dir") {
            settings.cacheDirectory = URL(fileURLWithPath: directory)
        }
        settings.useUTC = flags.utc || environment["ROSTER_UTC"] == "1" || config["utc"] == "true"
        settings.knownHosts = KnownHosts(file: KnownHosts.defaultFile(environment: environment))
        settings.caFile = pick(flags.caFile, "ROSTER_CA_FILE", "ca-file")
        settings.contactsFile = pick(flags.contactsFile, "ROSTER_CONTACTS", "contacts")
        settings.tls =
            flags.tls || environment["ROSTER_TLS"] == "1" || config["tls"] == "true" || settings.caFile != nil
            || settings.knownHosts.entry(for: settings.server) != nil
        // A token given directly beats a token file at the same level.
        if let token = flags.token {
            settings.token = token
        } else if let path = flags.tokenFile {
            settings.token = try readToken(path)
        } else if let token = environment["ROSTER_TOKEN"], !token.isEmpty {
            settings.token = token
        } else if let token = config["token"] {
            settings.token = token
        } else if let path = config["token-file"] {
            settings.token = try readToken(path)
        } else if let saved = LoginTokens.read(server: settings.server, environment: environment) {
            // `roster-client login`'s, for this server only.
            settings.token = saved.token
            settings.loginID = saved.loginID
        }
        return settings
    }

    /// The first server's host and port.
    public var hostAndPort: (host: String, port: Int)? {
        servers?.first.map { ($0.host, $0.port) }
    }

    /// `--server` may list several nodes of one cluster, comma-separated; nil if any is malformed.
    public var servers: [HostPort]? {
        let parts = server.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let parsed = parts.compactMap { HostPort(parsing: $0) }
        return parsed.isEmpty || parsed.count != parts.count ? nil : parsed
    }

    public func clientConfiguration(name: String = "roster-client") -> RosterClientConfiguration {
        var configuration = RosterClientConfiguration(servers: servers ?? [HostPort(host: "127.0.0.1", port: 7400)])
        configuration.tenant = tenant
        configuration.token = token
        configuration.cacheDirectory = cacheDirectory
        configuration.clientName = name
        configuration.tls = tlsConfiguration
        configuration.timeout = timeout
        // `watch` shows every schedule's on-duty people.
        configuration.allSchedules = true
        if let loginID {
            configuration.credentialName = "login:" + loginID
            let (server, caFile, token) = (server, caFile, token)
            configuration.renewToken = {
                switch await LoginTokens.current(server: server, caFile: caFile) {
                case .token(let renewed): return renewed
                case .stale(let saved, let problem):
                    CommandRunner.err("roster-client: \(problem)")
                    return saved
                case .none: return token
                }
            }
        }
        return configuration
    }

    /// --ca-file, else the CA pinned for this server, else the system trust store.
    public var tlsConfiguration: TLSClientConfiguration? {
        guard tls else { return nil }
        if let caFile { return TLSClientConfiguration(trust: .caFile(caFile)) }
        if let pinned = knownHosts.entry(for: server) {
            return TLSClientConfiguration(trust: .pinned(der: pinned.der, fingerprint: pinned.fingerprint))
        }
        return TLSClientConfiguration(trust: .system)
    }

    private static func readToken(_ path: String) throws(Problem) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .unreadableTokenFile(path) }
        // An empty file is a mistake (a failed redirect), not a wish to be anonymous.
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw .emptyTokenFile(path) }
        return token
    }

    private static func readConfig(_ url: URL) throws(Problem) -> [String: String] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if line.isEmpty { continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw .badConfigLine(file: url.path, line: index + 1, text: String(raw))
            }
            values[parts[0]] = parts[1]
        }
        return values
    }
}
