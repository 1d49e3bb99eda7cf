import ArgumentParser
import Foundation
import Logging
import RosterDomain
import RosterProtocol
import RosterServer
import RosterStorePostgres
import ServiceLifecycle

@main
struct RosterServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roster-server",
        abstract: "Serves shift rosters and pushes on-duty changes to subscribers.",
        version: RosterVersion.description,
        subcommands: [Serve.self, TokenCommand.self, TenantCommand.self, BackupCommand.self, RestoreCommand.self, StatusCommand.self, MigrateCommand.self,
                      DeliveriesCommand.self, ConfigCommand.self],
        defaultSubcommand: Serve.self)
}

/// Flags win over environment variables (ROSTER_*), which win over the config file, which wins
/// over the defaults.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server (the default command).",
        discussion: """
            Every option can also be set with an environment variable, named after the option in capitals \
            with a ROSTER_ prefix: --listen is ROSTER_LISTEN, --max-frame-bytes is ROSTER_MAX_FRAME_BYTES, \
            and in a YAML file given with --config, as a key named like the option (`listen: 0.0.0.0:7400`, \
            `tls: true`, `tls-name: [a.example, b.example]`). A flag beats its variable, which beats the file. SIGTERM or SIGINT sends GoingAway to every client and stops after \
            the grace period.
            """)

    @Option(help: "A YAML file with any of these options as keys (`roster-server config check FILE` checks it). (env: ROSTER_CONFIG)")
    var config: String?

    @Option(help: "Address to listen on, HOST:PORT. (env: ROSTER_LISTEN)")
    var listen: String?

    @Option(help: "HTTP address for health, metrics and the on-call JSON API (docs/HTTP.md), HOST:PORT, or none. Not loopback: TLS, as for --listen. (env: ROSTER_HTTP_LISTEN; default: 127.0.0.1:7480)")
    var httpListen: String?

    @Option(name: .customLong("data-dir"), help: "Directory for the database. (env: ROSTER_DATA_DIR; default: ./roster-data)")
    var dataDirectory: String?

    @Option(help: "The database: sqlite:PATH, or postgres://USER@HOST[:PORT]/DATABASE shared by several nodes (docs/SCALING.md). (env: ROSTER_STORE; default: SQLite in --data-dir)")
    var store: String?

    @Flag(help: "Create the demo tenant once and keep its plan rolling. (env: ROSTER_DEMO=1)")
    var demo = false

    @Flag(help: "Serve TLS. Without --tls-cert/--tls-key, a CA and certificate are generated in DATA_DIR/tls. Required on non-loopback addresses. (env: ROSTER_TLS=1)")
    var tls = false
    @Option(help: "PEM certificate chain (server certificate first). Implies --tls. (env: ROSTER_TLS_CERT)")
    var tlsCert: String?
    @Option(help: "PEM private key of --tls-cert. (env: ROSTER_TLS_KEY)")
    var tlsKey: String?
    @Option(help: "Require client certificates issued by the CAs in this PEM file (mTLS). (env: ROSTER_TLS_CLIENT_CA)")
    var tlsClientCa: String?
    @Option(help: "Another name for the generated certificate (DNS name or IP); repeatable.")
    var tlsName: [String] = []

    @Option(help: "Log level: trace, debug, info, notice, warning, error. (env: ROSTER_LOG_LEVEL; default: info)")
    var logLevel: String?
    @Option(help: "Log format: text, or json (one object per line, for journald and log shippers). (env: ROSTER_LOG_FORMAT; default: text)")
    var logFormat: String?

    @Option(help: "Maximum simultaneous connections. (env: ROSTER_MAX_CONNECTIONS)")
    var maxConnections: Int?
    @Option(help: "Maximum frame size after the handshake, in bytes. (env: ROSTER_MAX_FRAME_BYTES)")
    var maxFrameBytes: Int?
    @Option(help: "Maximum subscriptions per connection. (env: ROSTER_MAX_SUBSCRIPTIONS)")
    var maxSubscriptions: Int?
    @Option(help: "Maximum requests (queries, changes, imports) awaiting their answer per connection; past it RESOURCE_EXHAUSTED. (env: ROSTER_MAX_IN_FLIGHT; default: 64)")
    var maxInFlight: Int?
    @Option(help: "Maximum simultaneous HTTP connections; past it 503. (env: ROSTER_HTTP_MAX_CONNECTIONS; default: 1024)")
    var httpMaxConnections: Int?
    @Option(help: "Threads that resolve schedules and plan changes, off the event loops. (env: ROSTER_WORK_THREADS; default: one per core, at least 2)")
    var workThreads: Int?
    @Option(help: "Milliseconds an HTTP connection has for its TLS handshake and each request's head and body. (env: ROSTER_HTTP_HEADER_TIMEOUT_MS; default: 10000)")
    var httpHeaderTimeoutMs: Int64?
    @Option(help: "Milliseconds an HTTP connection may stay open between requests. (env: ROSTER_HTTP_IDLE_TIMEOUT_MS; default: 60000)")
    var httpIdleTimeoutMs: Int64?
    @Option(help: "Revisions kept for resume. (env: ROSTER_HISTORY_SIZE)")
    var historySize: Int?
    @Option(help: "Milliseconds a new connection has to send Hello. (env: ROSTER_HELLO_TIMEOUT_MS)")
    var helloTimeoutMs: Int64?
    @Option(help: "Ping interval in milliseconds; a peer silent for 1.5 intervals is closed. (env: ROSTER_PING_INTERVAL_MS)")
    var pingIntervalMs: Int64?
    @Option(help: "Milliseconds between Progress bookmarks to idle subscribers. (env: ROSTER_PROGRESS_INTERVAL_MS)")
    var progressIntervalMs: Int64?
    @Option(help: "Outbound bytes queued per connection before it is a slow consumer. (env: ROSTER_OUTBOUND_BUFFER_BYTES)")
    var outboundBufferBytes: Int?
    @Option(help: "Milliseconds a slow consumer's writes may stall before it is disconnected. (env: ROSTER_WRITE_DEADLINE_MS)")
    var writeDeadlineMs: Int64?
    @Option(help: "Milliseconds clients get after GoingAway. (env: ROSTER_SHUTDOWN_GRACE_MS)")
    var shutdownGraceMs: Int64?
    @Option(help: "Days audit entries are kept. (env: ROSTER_AUDIT_RETENTION_DAYS; default: 400)")
    var auditRetentionDays: Int?
    @Option(help: "Days of past shifts in a calendar feed. (env: ROSTER_CALENDAR_DAYS_BACK; default: 30)")
    var calendarDaysBack: Int?
    @Option(help: "Days of future shifts in a calendar feed. (env: ROSTER_CALENDAR_DAYS_AHEAD; default: 90)")
    var calendarDaysAhead: Int?
    @Option(help: "Milliseconds a webhook endpoint has to answer. (env: ROSTER_WEBHOOK_TIMEOUT_MS; default: 10000)")
    var webhookTimeoutMs: Int64?
    @Option(help: "Milliseconds before a failed webhook delivery's first retry; each later one waits twice as long, at most an hour. (env: ROSTER_WEBHOOK_RETRY_BASE_MS; default: 10000)")
    var webhookRetryBaseMs: Int64?
    @Option(help: "Milliseconds a webhook endpoint may keep failing before it is disabled. (env: ROSTER_WEBHOOK_RETRY_BUDGET_MS; default: 86400000, a day)")
    var webhookRetryBudgetMs: Int64?
    @Option(help: "Days ahead in which a schedule with nobody on duty is a coverage.gap event. (env: ROSTER_COVERAGE_GAP_DAYS; default: 7)")
    var coverageGapDays: Int?
    @Option(help: "The key webhook secrets are sealed with in the store; made if missing. Nodes sharing a store need the same file. (env: ROSTER_SECRETS_KEY_FILE; default: DATA_DIR/secrets.key)")
    var secretsKeyFile: String?
    @Option(help: "An address range webhooks may reach besides public addresses, e.g. 10.1.0.0/16; repeatable. (env: ROSTER_WEBHOOK_ALLOW, comma-separated; default: public addresses only, and loopback on a loopback listener)")
    var webhookAllow: [String] = []

    func validate() throws {
        let below = try Fallbacks(file: configFile())
        if let listen = below.text(listen, "LISTEN"), (try? Self.parse(listen: listen)) == nil {
            throw ValidationError("--listen must be HOST:PORT, e.g. 127.0.0.1:7400 (got \"\(listen)\")")
        }
        if let http = below.text(httpListen, "HTTP_LISTEN"), http != "none", (try? Self.parse(listen: http)) == nil {
            throw ValidationError("--http-listen must be HOST:PORT or none, e.g. 127.0.0.1:7480 (got \"\(http)\")")
        }
        if (below.text(tlsCert, "TLS_CERT") == nil) != (below.text(tlsKey, "TLS_KEY") == nil) {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        if let level = below.text(logLevel, "LOG_LEVEL"), Logger.Level(rawValue: level) == nil {
            throw ValidationError("unknown log level \"\(level)\"")
        }
        if let format = below.text(logFormat, "LOG_FORMAT"), !["text", "json"].contains(format) {
            throw ValidationError("--log-format is text or json (got \"\(format)\")")
        }
        _ = try Self.ranges(webhookAllow, below: below)
    }

    /// --webhook-allow, else ROSTER_WEBHOOK_ALLOW (comma-separated), else the file's list.
    static func ranges(_ flags: [String], below: Fallbacks) throws -> [IPRange] {
        let texts = !flags.isEmpty ? flags
            : below.environment["ROSTER_WEBHOOK_ALLOW"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? below.file?.list("webhook-allow") ?? []
        return try texts.map { text in
            guard let range = IPRange(text) else {
                throw ValidationError("--webhook-allow takes an address or a CIDR range such as 10.1.0.0/16 (got \"\(text)\")")
            }
            return range
        }
    }

    func run() async throws {
        let below = try Fallbacks(file: configFile())
        let level = below.text(logLevel, "LOG_LEVEL").flatMap(Logger.Level.init(rawValue:)) ?? .info
        let json = below.text(logFormat, "LOG_FORMAT") == "json"
        // One level for every logger, which SIGHUP may change (`HangupReload`).
        let levels = LogLevelSwitch(level)
        LoggingSystem.bootstrap { label in
            let handler: any LogHandler = json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            return SwitchedLogHandler(handler, levels: levels)
        }
        let logger = Logger(label: "roster.server")

        var configuration = ServerConfiguration(dataDirectory: below.text(dataDirectory, "DATA_DIR") ?? "./roster-data")
        configuration.storeDrivers = .withPostgreSQL
        configuration.listen = try Self.parse(listen: below.text(listen, "LISTEN") ?? "127.0.0.1:7400")
        let http = below.text(httpListen, "HTTP_LISTEN") ?? "127.0.0.1:7480"
        configuration.httpListen = http == "none" ? nil : try Self.parse(listen: http)
        configuration.demo = below.flag(demo, "DEMO")
        configuration.store = try below.text(store, "STORE").map { try StoreLocation(parsing: $0) }
        configuration.secretsKeyFile = below.text(secretsKeyFile, "SECRETS_KEY_FILE")
        let certificate = below.text(tlsCert, "TLS_CERT"), clientCA = below.text(tlsClientCa, "TLS_CLIENT_CA")
        let names = tlsName.isEmpty ? below.file?.list("tls-name") ?? [] : tlsName
        if below.flag(tls, "TLS") || certificate != nil || clientCA != nil || !names.isEmpty {
            var settings = ServerConfiguration.TLSSettings()
            settings.certificateChainFile = certificate
            settings.privateKeyFile = below.text(tlsKey, "TLS_KEY")
            settings.clientCAFile = clientCA
            settings.names = names
            configuration.tls = settings
        }
        var limits = configuration.limits
        limits.maxConnections = try below.number(maxConnections, "MAX_CONNECTIONS") ?? limits.maxConnections
        limits.maxFrameBytes = try below.number(maxFrameBytes, "MAX_FRAME_BYTES") ?? limits.maxFrameBytes
        limits.maxSubscriptionsPerConnection = try below.number(maxSubscriptions, "MAX_SUBSCRIPTIONS") ?? limits.maxSubscriptionsPerConnection
        limits.maxInFlightRequests = try below.number(maxInFlight, "MAX_IN_FLIGHT") ?? limits.maxInFlightRequests
        limits.historySize = try below.number(historySize, "HISTORY_SIZE") ?? limits.historySize
        limits.helloTimeout = try below.number(helloTimeoutMs, "HELLO_TIMEOUT_MS").map(Duration.milliseconds) ?? limits.helloTimeout
        limits.pingInterval = try below.number(pingIntervalMs, "PING_INTERVAL_MS").map(Duration.milliseconds) ?? limits.pingInterval
        limits.progressInterval = try below.number(progressIntervalMs, "PROGRESS_INTERVAL_MS").map(Duration.milliseconds)
            ?? limits.progressInterval
        if let bytes = try below.number(outboundBufferBytes, "OUTBOUND_BUFFER_BYTES") {
            limits.outboundHighWaterMark = bytes
            limits.outboundLowWaterMark = bytes / 4
        }
        limits.writeDeadline = try below.number(writeDeadlineMs, "WRITE_DEADLINE_MS").map(Duration.milliseconds) ?? limits.writeDeadline
        limits.shutdownGrace = try below.number(shutdownGraceMs, "SHUTDOWN_GRACE_MS").map(Duration.milliseconds) ?? limits.shutdownGrace
        limits.httpMaxConnections = try below.number(httpMaxConnections, "HTTP_MAX_CONNECTIONS") ?? limits.httpMaxConnections
        limits.workThreads = try below.number(workThreads, "WORK_THREADS") ?? limits.workThreads
        limits.httpHeaderTimeout = try below.number(httpHeaderTimeoutMs, "HTTP_HEADER_TIMEOUT_MS").map(Duration.milliseconds)
            ?? limits.httpHeaderTimeout
        limits.httpIdleTimeout = try below.number(httpIdleTimeoutMs, "HTTP_IDLE_TIMEOUT_MS").map(Duration.milliseconds) ?? limits.httpIdleTimeout
        configuration.limits = limits
        configuration.calendarDaysBack = min(366, max(0, try below.number(calendarDaysBack, "CALENDAR_DAYS_BACK") ?? 30))
        configuration.calendarDaysAhead = min(366, max(1, try below.number(calendarDaysAhead, "CALENDAR_DAYS_AHEAD") ?? 90))
        var notifications = configuration.notifications
        if let ms = try below.number(webhookTimeoutMs, "WEBHOOK_TIMEOUT_MS") { notifications.requestTimeout = .milliseconds(max(1, ms)) }
        if let ms = try below.number(webhookRetryBaseMs, "WEBHOOK_RETRY_BASE_MS") { notifications.retryBase = .milliseconds(max(1, ms)) }
        if let ms = try below.number(webhookRetryBudgetMs, "WEBHOOK_RETRY_BUDGET_MS") { notifications.retryBudget = .milliseconds(max(0, ms)) }
        if let days = try below.number(coverageGapDays, "COVERAGE_GAP_DAYS") { notifications.gapDays = min(90, max(1, days)) }
        notifications.webhookAllow = try Self.ranges(webhookAllow, below: below)
        configuration.notifications = notifications
        if let days = try below.number(auditRetentionDays, "AUDIT_RETENTION_DAYS") {
            guard days > 0 else { throw ValidationError("--audit-retention-days must be at least 1 (got \(days))") }
            configuration.auditRetention = .seconds(Int64(days) * 86_400)
        }

        let problems = configuration.problems
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "\n")) }
        ProcessLimits.raiseOpenFileLimit()
        let server = RosterServer(configuration: configuration, logger: logger)
        // SIGHUP re-reads the level the way start-up did: flag, environment, then the file anew.
        let flagLevel = logLevel, configPath = config
        let reload = HangupReload(server: server, logLevels: levels, logger: logger) {
            let fresh = try Self.Fallbacks(file: configPath.map(ServerConfigFile.load) ?? Self.environmentConfigFile())
            guard let text = fresh.text(flagLevel, "LOG_LEVEL") else { return nil }
            guard let level = Logger.Level(rawValue: text) else { throw ValidationError("unknown log level \"\(text)\"") }
            return level
        }
        let services = ServiceGroup(configuration: .init(
            services: [.init(service: server), .init(service: reload, successTerminationBehavior: .ignore)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await services.run()
    }

    /// The --config file (or ROSTER_CONFIG's), checked; nil without one.
    private func configFile() throws -> ServerConfigFile? {
        guard let path = config else { return try Self.environmentConfigFile() }
        do { return try ServerConfigFile.load(path) } catch { throw ValidationError(error.description) }
    }

    private static func environmentConfigFile() throws -> ServerConfigFile? {
        guard let path = ProcessInfo.processInfo.environment["ROSTER_CONFIG"] else { return nil }
        do { return try ServerConfigFile.load(path) } catch { throw ValidationError(error.description) }
    }

    /// What stands under a flag: its ROSTER_ variable, then the config file (read once).
    struct Fallbacks {
        let file: ServerConfigFile?
        let environment = ProcessInfo.processInfo.environment

        private static func key(_ name: String) -> String { name.lowercased().replacingOccurrences(of: "_", with: "-") }

        func text(_ flag: String?, _ name: String) -> String? {
            flag ?? environment["ROSTER_" + name] ?? file?.text(Self.key(name))
        }

        func number<T: LosslessStringConvertible>(_ flag: T?, _ name: String) throws -> T? {
            if let flag { return flag }
            if let text = environment["ROSTER_" + name] {
                guard let value = T(text) else { throw ValidationError("ROSTER_\(name) must be a number (got \"\(text)\")") }
                return value
            }
            guard let file, let text = file.text(Self.key(name)) else { return nil }
            guard let value = T(text) else { throw ValidationError("\(file.path): \(Self.key(name)) is out of range (\(text))") }
            return value
        }

        /// A flag given, else ROSTER_NAME (1 or 0), else the file.
        func flag(_ given: Bool, _ name: String) -> Bool {
            if given { return true }
            if let text = environment["ROSTER_" + name] { return text == "1" }
            return file?.flag(Self.key(name)) ?? false
        }
    }

    static func parse(listen: String) throws -> HostPort {
        guard let address = HostPort(parsing: listen, allowingPortZero: true, defaultHost: "0.0.0.0") else {
            throw ValidationError("--listen must be HOST:PORT (got \"\(listen)\")")
        }
        return address
    }
}

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Check a configuration file, or show the settings and where each comes from.",
        subcommands: [Check.self, Print.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check a YAML configuration file without starting.")
        @Argument(help: "The file.") var file: String

        func run() throws {
            let loaded: ServerConfigFile
            do { loaded = try ServerConfigFile.load(file) } catch {
                FileHandle.standardError.write(Data("\(error.description)\n".utf8))
                throw ExitCode(65)
            }
            var problems: [String] = []
            if let listen = loaded.text("listen"), HostPort(parsing: listen, allowingPortZero: true, defaultHost: "0.0.0.0") == nil {
                problems.append("line \(loaded.entries["listen"]!.line): listen must be HOST:PORT (got \"\(listen)\")")
            }
            if let level = loaded.text("log-level"), Logger.Level(rawValue: level) == nil {
                problems.append("line \(loaded.entries["log-level"]!.line): log-level: unknown level \"\(level)\"")
            }
            if let format = loaded.text("log-format"), !["text", "json"].contains(format) {
                problems.append("line \(loaded.entries["log-format"]!.line): log-format is text or json (got \"\(format)\")")
            }
            if (loaded.text("tls-cert") == nil) != (loaded.text("tls-key") == nil) {
                problems.append("tls-cert and tls-key go together")
            }
            guard problems.isEmpty else {
                FileHandle.standardError.write(Data("\(file):\n  \(problems.joined(separator: "\n  "))\n".utf8))
                throw ExitCode(65)
            }
            print("\(file): ok (\(loaded.entries.count) setting\(loaded.entries.count == 1 ? "" : "s"))")
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show every setting of `serve` from the environment and the file, and where each comes from (flags given to serve beat both).")
        @Option(help: "The configuration file. (env: ROSTER_CONFIG)") var config: String?

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            var file: ServerConfigFile?
            if let path = config ?? environment["ROSTER_CONFIG"] {
                do { file = try ServerConfigFile.load(path) } catch { throw ValidationError(error.description) }
            }
            for (key, kind) in ServerConfigFile.keys {
                let variable = ServerConfigFile.environmentName(of: key)
                if let value = environment[variable] {
                    print("\(key) = \(value)\t(environment \(variable))")
                } else if let file, let entry = file.entries[key] {
                    let shown = kind == .flag ? (entry.texts == ["1"] ? "true" : "false") : entry.texts.joined(separator: ", ")
                    print("\(key) = \(shown)\t(\(file.path):\(entry.line))")
                } else {
                    print("\(key)\t(default)")
                }
            }
        }
    }
}
