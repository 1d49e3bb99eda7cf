import ArgumentParser
import Foundation
import Logging
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStorePostgres
import ServiceLifecycle
import RosterSystem

@main
struct RosterServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roster-server",
        abstract: "Serves shift rosters and pushes on-duty changes to subscribers.",
        version: RosterVersion.description,
        subcommands: [
            Serve.self, TokenCommand.self, TenantCommand.self, BackupCommand.self, RestoreCommand.self,
            StatusCommand.self, MigrateCommand.self, SelfCheckCommand.self,
            DeliveriesCommand.self, ConfigCommand.self,
        ],
        defaultSubcommand: Serve.self)
}

/// Every setting is a row of `ServerSettings` (RosterServer): its flag, variable, config-file key,
/// help, default and range are defined there. Here each only gets a property named like it,
/// which `givenFlags` reads; `ServeSettingsTests` checks that `--help` lists every row.
/// Flags win over environment variables (ROSTER_*), which win over the config file, which wins
/// over the defaults.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server (the default command).",
        discussion: """
            Every option can also be set with an environment variable, named after the option in capitals \
            with a ROSTER_ prefix: --listen is ROSTER_LISTEN, --max-frame-bytes is ROSTER_MAX_FRAME_BYTES, \
            and in a YAML file given with --config, as a key named like the option (`listen: 0.0.0.0:7400`, \
            `tls: true`, `tls-name: [a.example, b.example]`). A flag beats its variable, which beats the file. \
            `roster-server config print` shows every setting, its value and where it comes from. SIGTERM or SIGINT \
            sends GoingAway to every client and stops after the grace period.
            """)

    @Option(
        help:
            "A YAML file with any of these options as keys (`roster-server config check FILE` checks it). (env: ROSTER_CONFIG)"
    )
    var config: String?

    @Option(help: .setting("listen")) var listen: String?
    @Option(help: .setting("http-listen")) var httpListen: String?
    @Option(help: .setting("data-dir")) var dataDir: String?
    @Option(help: .setting("store")) var store: String?
    @Flag(help: .setting("demo")) var demo = false
    @Flag(help: .setting("no-development-mode")) var noDevelopmentMode = false
    @Option(help: .setting("default-tenant")) var defaultTenant: String?
    @Flag(help: .setting("tls")) var tls = false
    @Option(help: .setting("tls-cert")) var tlsCert: String?
    @Option(help: .setting("tls-key")) var tlsKey: String?
    @Option(help: .setting("tls-client-ca")) var tlsClientCa: String?
    @Option(help: .setting("tls-name")) var tlsName: [String] = []
    @Option(help: .setting("log-level")) var logLevel: String?
    @Option(help: .setting("log-format")) var logFormat: String?
    @Option(help: .setting("max-connections")) var maxConnections: String?
    @Option(help: .setting("max-frame-bytes")) var maxFrameBytes: String?
    @Option(help: .setting("max-subscriptions")) var maxSubscriptions: String?
    @Option(help: .setting("max-in-flight")) var maxInFlight: String?
    @Option(help: .setting("http-max-connections")) var httpMaxConnections: String?
    @Option(help: .setting("http-max-streams-per-client")) var httpMaxStreamsPerClient: String?
    @Option(help: .setting("work-threads")) var workThreads: String?
    @Option(help: .setting("max-queued-work-per-tenant")) var maxQueuedWorkPerTenant: String?
    @Option(help: .setting("frames-per-turn")) var framesPerTurn: String?
    @Option(help: .setting("http-header-timeout-ms")) var httpHeaderTimeoutMs: String?
    @Option(help: .setting("http-idle-timeout-ms")) var httpIdleTimeoutMs: String?
    @Option(help: .setting("http-max-body-bytes")) var httpMaxBodyBytes: String?
    @Option(help: .setting("http-send-buffer-bytes")) var httpSendBufferBytes: String?
    @Option(help: .setting("history-size")) var historySize: String?
    @Option(help: .setting("hello-timeout-ms")) var helloTimeoutMs: String?
    @Option(help: .setting("ping-interval-ms")) var pingIntervalMs: String?
    @Option(help: .setting("progress-interval-ms")) var progressIntervalMs: String?
    @Option(help: .setting("outbound-buffer-bytes")) var outboundBufferBytes: String?
    @Option(help: .setting("write-deadline-ms")) var writeDeadlineMs: String?
    @Option(help: .setting("shutdown-grace-ms")) var shutdownGraceMs: String?
    @Option(help: .setting("audit-retention-days")) var auditRetentionDays: String?
    @Option(help: .setting("calendar-days-back")) var calendarDaysBack: String?
    @Option(help: .setting("calendar-days-ahead")) var calendarDaysAhead: String?
    @Option(help: .setting("webhook-timeout-ms")) var webhookTimeoutMs: String?
    @Option(help: .setting("webhook-retry-base-ms")) var webhookRetryBaseMs: String?
    @Option(help: .setting("webhook-retry-budget-ms")) var webhookRetryBudgetMs: String?
    @Option(help: .setting("coverage-gap-days")) var coverageGapDays: String?
    @Option(help: .setting("webhook-allow")) var webhookAllow: [String] = []
    @Option(help: .setting("chat-language")) var chatLanguage: String?
    @Option(help: .setting("push-contact")) var pushContact: String?
    @Option(help: .setting("web-url")) var webUrl: String?
    @Option(help: .setting("secrets-key-file")) var secretsKeyFile: String?

    /// The settings given as flags, by setting name: each property is named like its setting.
    var givenFlags: [String: [String]] {
        var given: [String: [String]] = [:]
        for child in Mirror(reflecting: self).children {
            guard let label = child.label, let name = Self.settingName(label) else { continue }
            switch child.value {
            case let option as Option<String?>: if let value = option.wrappedValue { given[name] = [value] }
            case let option as Option<[String]>: if !option.wrappedValue.isEmpty { given[name] = option.wrappedValue }
            case let flag as Flag<Bool>: if flag.wrappedValue { given[name] = ["1"] }
            default: break
            }
        }
        return given
    }

    /// "_maxFrameBytes" → "max-frame-bytes", for a property that is a setting's; nil otherwise.
    static func settingName(_ label: String) -> String? {
        var name = ""
        for character in label.drop(while: { $0 == "_" }) {
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
        return ServerSettings.named(name) == nil ? nil : name
    }

    /// The configuration from the flags, the environment and the file; every problem at once.
    private func settings() throws -> ServerConfiguration {
        do {
            return try ServerSettings.configuration(
                flags: givenFlags, environment: ProcessInfo.processInfo.environment,
                file: configFile()
            ).configuration
        } catch let error as ServerSettingError {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        _ = try settings()
    }

    func run() async throws {
        var configuration = try settings()
        configuration.storeDrivers = .withPostgreSQL
        let json = configuration.logJSON
        // One level for every logger, which SIGHUP may change (`HangupReload`).
        let levels = LogLevelSwitch(Logger.Level(rawValue: configuration.logLevel) ?? .info)
        LoggingSystem.bootstrap { label in
            let handler: any LogHandler =
                json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            return SwitchedLogHandler(handler, levels: levels)
        }
        let logger = Logger(label: "roster.server")
        ProcessLimits.raiseOpenFileLimit()
        let server = RosterServer(configuration: configuration, logger: logger)
        // SIGHUP re-reads the level the way start-up did: flag, environment, then the file anew.
        let flags = givenFlags, configPath = config
        let reload = HangupReload(server: server, logLevels: levels, logger: logger) {
            let file = try configPath.map(ServerConfigFile.load) ?? Self.environmentConfigFile()
            let fresh = try ServerSettings.configuration(
                flags: flags, environment: ProcessInfo.processInfo.environment, file: file)
            return Logger.Level(rawValue: fresh.configuration.logLevel)
        }
        let services = ServiceGroup(
            configuration: .init(
                services: [.init(service: server), .init(service: reload, successTerminationBehavior: .ignore)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await services.run()
    }

    /// The --config file (or ROSTER_CONFIG's), checked; nil without one.
    private func configFile() throws -> ServerConfigFile? {
        guard let path = config else { return try Self.environmentConfigFile() }
        do { return try ServerConfigFile.load(path) } catch { throw ValidationError(error.description) }
    }

    static func environmentConfigFile() throws -> ServerConfigFile? {
        guard let path = ProcessInfo.processInfo.environment["ROSTER_CONFIG"] else { return nil }
        do { return try ServerConfigFile.load(path) } catch { throw ValidationError(error.description) }
    }
}

extension ArgumentHelp {
    /// A setting's help line from its row in `ServerSettings`.
    static func setting(_ name: String) -> ArgumentHelp {
        guard let setting = ServerSettings.named(name) else { preconditionFailure("no setting named \(name)") }
        return ArgumentHelp(stringLiteral: setting.helpLine)
    }
}

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Check a configuration file, or show the settings and where each comes from.",
        subcommands: [Check.self, Print.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a YAML configuration file without starting: every problem at once, with its line.")
        @Argument(help: "The file.") var file: String

        func run() throws {
            do {
                let loaded = try ServerConfigFile.load(file)
                _ = try ServerSettings.configuration(flags: [:], environment: [:], file: loaded)
                print("\(file): ok (\(loaded.entries.count) setting\(loaded.entries.count == 1 ? "" : "s"))")
            } catch let error as ServerConfigFile.Problem {
                FileHandle.standardError.write(Data("\(error.description)\n".utf8))
                throw ExitCode(65)
            } catch let error as ServerSettingError {
                FileHandle.standardError.write(Data("\(error.description)\n".utf8))
                throw ExitCode(65)
            }
        }
    }

    struct Print: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "print",
            abstract:
                "Show every setting of `serve` from the environment and the file, and where each comes from (flags given to serve beat both)."
        )
        @Option(help: "The configuration file. (env: ROSTER_CONFIG)") var config: String?

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            var file: ServerConfigFile?
            if let path = config ?? environment["ROSTER_CONFIG"] {
                do { file = try ServerConfigFile.load(path) } catch { throw ValidationError(error.description) }
            }
            let resolved: (configuration: ServerConfiguration, sources: [String: ServerSettings.Source])
            do { resolved = try ServerSettings.configuration(flags: [:], environment: environment, file: file) } catch {
                throw ValidationError(error.description)
            }
            for setting in ServerSettings.all {
                let value = setting.value(in: resolved.configuration)
                print(
                    "\(setting.name) = \(value.isEmpty ? "(none)" : value)\t(\(resolved.sources[setting.name] ?? .defaultValue))"
                )
            }
        }
    }
}
