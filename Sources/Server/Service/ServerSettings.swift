import Foundation
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore

extension ServerConfiguration {
    /// What `roster-server serve` starts from before any setting is read: the library's defaults,
    /// the data directory ./roster-data, and the HTTP listener on 127.0.0.1:7480.
    public static var serveDefaults: ServerConfiguration {
        var configuration = ServerConfiguration(dataDirectory: "./roster-data")
        configuration.httpListen = HostPort(host: "127.0.0.1", port: 7480)
        return configuration
    }

    /// The TLS settings, made (TLS on) when a TLS setting is read.
    fileprivate var tlsSettings: TLSSettings {
        get { tls ?? TLSSettings() }
        set { tls = newValue }
    }
}

/// Every setting of `roster-server serve`, in the order `--help` and `config print` show them.
public enum ServerSettings {
    public static let all: [ServerSetting] = [
        ServerSetting(
            "listen", .text, "Address to listen on, HOST:PORT.",
            read: { configuration, texts throws(ServerSettingError) in
                configuration.listen = try ServerSetting.address("listen", texts)
            }, show: { "\($0.listen)" }),
        ServerSetting(
            "http-listen", .text,
            "HTTP address for health, metrics, the on-call JSON API (docs/HTTP.md) and the web app (docs/WEB.md), HOST:PORT, or none. Not loopback: TLS, as for --listen.",
            read: { configuration, texts throws(ServerSettingError) in
                configuration.httpListen = texts == ["none"] ? nil : try ServerSetting.address("http-listen", texts)
            }, show: { $0.httpListen.map { "\($0)" } ?? "none" }),
        ServerSetting(
            "data-dir", .text, "Directory for the database, the TLS files and the first admin token.",
            read: { configuration, texts throws(ServerSettingError) in
                configuration.dataDirectory = try ServerSetting.single("data-dir", texts)
            }, show: { $0.dataDirectory }),
        ServerSetting(
            "store", .text,
            "The database: sqlite:PATH, or postgres://USER@HOST[:PORT]/DATABASE shared by several nodes (docs/SCALING.md).",
            read: { configuration, texts throws(ServerSettingError) in
                let text = try ServerSetting.single("store", texts)
                do { configuration.store = try StoreLocation(parsing: text) } catch {
                    throw ServerSettingError(description: "store: \(error)")
                }
            }, show: { $0.store.map { "\($0)" } ?? "SQLite in data-dir" }),
        .flag("demo", \.demo, "Create the demo tenant once and keep its plan rolling."),
        .flag(
            "no-development-mode", \.noDevelopmentMode,
            "Loopback listeners want tokens too: no anonymous reads (for a server behind a reverse proxy or tunnel on this host)."
        ),
        ServerSetting(
            "default-tenant", .text, "The tenant a client that names none selects (created at start if missing).",
            read: { configuration, texts throws(ServerSettingError) in
                let id = try ServerSetting.single("default-tenant", texts)
                guard Tenant.isValidID(id) else {
                    throw ServerSettingError(description: "default-tenant: \(Tenant.idRule) (got \"\(id)\")")
                }
                configuration.defaultTenant = id
            }, show: { $0.defaultTenant ?? "demo if the store has it, else default" }),
        ServerSetting(
            "tls", .flag,
            "Serve TLS. Without --tls-cert/--tls-key, a CA and certificate are generated in DATA_DIR/tls. Required on non-loopback addresses.",
            read: { configuration, texts throws(ServerSettingError) in
                if try ServerSetting.onOff("tls", texts) { configuration.tls = configuration.tlsSettings }
            }, show: { $0.tls == nil ? "false" : "true" }),
        ServerSetting(
            "tls-cert", .text, "PEM certificate chain (server certificate first). Implies --tls.",
            read: { configuration, texts throws(ServerSettingError) in
                configuration.tlsSettings.certificateChainFile = try ServerSetting.single("tls-cert", texts)
            }, show: { $0.tls?.certificateChainFile ?? "" },
            check: { configuration in
                (configuration.tls?.certificateChainFile == nil) != (configuration.tls?.privateKeyFile == nil)
                    ? "tls-cert and tls-key go together" : nil
            }),
        ServerSetting(
            "tls-key", .text, "PEM private key of --tls-cert.",
            read: { configuration, texts throws(ServerSettingError) in
                configuration.tlsSettings.privateKeyFile = try ServerSetting.single("tls-key", texts)
            }, show: { $0.tls?.privateKeyFile ?? "" }),
        ServerSetting(
            "tls-client-ca", .text,
            "Require client certificates issued by the CAs in this PEM file (mTLS). Implies --tls.",
            read: { configuration, texts throws(ServerSettingError) in
                configuration.tlsSettings.clientCAFile = try ServerSetting.single("tls-client-ca", texts)
            }, show: { $0.tls?.clientCAFile ?? "" }),
        ServerSetting(
            "tls-name", .list,
            "Another name for the generated certificate (DNS name or IP); repeatable. Implies --tls.",
            read: { configuration, texts throws(ServerSettingError) in
                guard !texts.isEmpty else { return }
                configuration.tlsSettings.names = texts
            }, show: { $0.tls?.names.joined(separator: ", ") ?? "" }),
        ServerSetting(
            "log-level", .text, "Log level: trace, debug, info, notice, warning, error.",
            read: { configuration, texts throws(ServerSettingError) in
                let text = try ServerSetting.single("log-level", texts)
                guard ServerConfiguration.logLevels.contains(text) else {
                    throw ServerSettingError(
                        description:
                            "log-level: unknown level \"\(text)\" (\(ServerConfiguration.logLevels.joined(separator: ", ")))"
                    )
                }
                configuration.logLevel = text
            }, show: { $0.logLevel }),
        ServerSetting(
            "log-format", .text, "Log format: text, or json (one object per line, for journald and log shippers).",
            read: { configuration, texts throws(ServerSettingError) in
                let text = try ServerSetting.single("log-format", texts)
                guard text == "text" || text == "json" else {
                    throw ServerSettingError(description: "log-format is text or json (got \"\(text)\")")
                }
                configuration.logJSON = text == "json"
            }, show: { $0.logJSON ? "json" : "text" }),
        .number(
            "max-connections", \.limits.maxConnections, 1...1_000_000,
            "Maximum simultaneous protocol connections; past it RESOURCE_EXHAUSTED."),
        .number(
            "max-frame-bytes", \.limits.maxFrameBytes, WireProtocol.handshakeMaxFrameLength...(64 << 20),
            "Maximum frame size after the handshake, in bytes."),
        .number(
            "max-subscriptions", \.limits.maxSubscriptionsPerConnection, 1...1_024,
            "Maximum subscriptions per connection."),
        .number(
            "max-in-flight", \.limits.maxInFlightRequests, 1...10_000,
            "Maximum requests (queries, changes, imports) awaiting their answer per connection; past it RESOURCE_EXHAUSTED."
        ),
        .number(
            "http-max-connections", \.limits.httpMaxConnections, 1...1_000_000,
            "Maximum simultaneous HTTP connections; past it 503."),
        .number(
            "http-max-streams-per-client", \.limits.httpMaxStreamsPerClient, 1...1_000_000,
            "Event streams one token or one address may hold; past it 429. All streams take at most 3/4 of the HTTP connections."
        ),
        .number(
            "work-threads", \.limits.workThreads, 0...256,
            "Threads that resolve schedules and plan changes, off the event loops (one kept for short work; long reads in slices get as many as the rest again, at a lower priority); 0: one per core, at least 2."
        ),
        .number(
            "max-queued-work-per-tenant", \.limits.maxQueuedWorkPerTenant, 1...100_000,
            "Jobs one tenant may have waiting for the work threads; past it RESOURCE_EXHAUSTED."),
        .number(
            "frames-per-turn", \.limits.framesPerTurn, 1...10_000,
            "Frames of one connection's read worked through before the event loop serves others."),
        .duration(
            "http-header-timeout-ms", \.limits.httpHeaderTimeout, in: .milliseconds, 100...600_000,
            "Milliseconds an HTTP connection has for its TLS handshake and each request's head and body."),
        .duration(
            "http-idle-timeout-ms", \.limits.httpIdleTimeout, in: .milliseconds, 100...86_400_000,
            "Milliseconds an HTTP connection may stay open between requests."),
        .number(
            "http-max-body-bytes", \.limits.httpMaxBodyBytes, 0...(64 << 20),
            "Bytes of an HTTP request body; more closes the connection."),
        .number(
            "http-send-buffer-bytes", \.limits.httpSendBufferBytes, 4_096...(4 << 20),
            "Kernel send buffer of each HTTP connection (SO_SNDBUF; the kernel doubles it)."),
        .number("history-size", \.limits.historySize, 1...10_000_000, "Revisions kept for resume."),
        .duration(
            "hello-timeout-ms", \.limits.helloTimeout, in: .milliseconds, 100...600_000,
            "Milliseconds a new connection has to send Hello."),
        .duration(
            "ping-interval-ms", \.limits.pingInterval, in: .milliseconds, 100...3_600_000,
            "Ping interval in milliseconds; a peer silent for 1.5 intervals is closed."),
        .duration(
            "progress-interval-ms", \.limits.progressInterval, in: .milliseconds, 100...86_400_000,
            "Milliseconds between Progress bookmarks to idle subscribers."),
        ServerSetting(
            "outbound-buffer-bytes", .number,
            "Outbound bytes queued per connection before it is a slow consumer (reading resumes below a quarter of it); HTTP connections queue at most 64 KiB.",
            read: { configuration, texts throws(ServerSettingError) in
                let bytes = try ServerSetting.wholeNumber("outbound-buffer-bytes", texts)
                configuration.limits.outboundHighWaterMark = bytes
                configuration.limits.outboundLowWaterMark = bytes / 4
            }, show: { "\($0.limits.outboundHighWaterMark)" },
            check: { configuration in
                let bytes = configuration.limits.outboundHighWaterMark
                return (4_096...(1 << 30)).contains(bytes)
                    ? nil : "outbound-buffer-bytes is 4096 to \(1 << 30) (got \(bytes))"
            }),
        .duration(
            "write-deadline-ms", \.limits.writeDeadline, in: .milliseconds, 100...600_000,
            "Milliseconds a slow consumer's writes may stall before it is disconnected."),
        .duration(
            "shutdown-grace-ms", \.limits.shutdownGrace, in: .milliseconds, 0...600_000,
            "Milliseconds clients get after GoingAway."),
        .duration("audit-retention-days", \.auditRetention, in: .days, 1...36_600, "Days audit entries are kept."),
        .number("calendar-days-back", \.calendarDaysBack, 0...366, "Days of past shifts in a calendar feed."),
        .number("calendar-days-ahead", \.calendarDaysAhead, 1...366, "Days of future shifts in a calendar feed."),
        .duration(
            "webhook-timeout-ms", \.notifications.requestTimeout, in: .milliseconds, 1...600_000,
            "Milliseconds a webhook endpoint has to answer."),
        .duration(
            "webhook-retry-base-ms", \.notifications.retryBase, in: .milliseconds, 1...86_400_000,
            "Milliseconds before a failed webhook delivery's first retry; each later one waits twice as long, at most an hour."
        ),
        .duration(
            "webhook-retry-budget-ms", \.notifications.retryBudget, in: .milliseconds, 0...31_622_400_000,
            "Milliseconds a webhook endpoint may keep failing before it is disabled."),
        .number(
            "coverage-gap-days", \.notifications.gapDays, 1...90,
            "Days ahead in which a schedule with nobody on duty is a coverage.gap event."),
        ServerSetting(
            "webhook-allow", .list,
            "An address range webhooks may reach besides public addresses, e.g. 10.1.0.0/16; repeatable.",
            read: { configuration, texts throws(ServerSettingError) in
                configuration.notifications.webhookAllow = try texts.map { text throws(ServerSettingError) in
                    guard let range = IPRange(text) else {
                        throw ServerSettingError(
                            description:
                                "webhook-allow takes an address or a CIDR range such as 10.1.0.0/16 (got \"\(text)\")")
                    }
                    return range
                }
            },
            show: { configuration in
                configuration.notifications.webhookAllow.isEmpty
                    ? "" : configuration.notifications.webhookAllow.map(\.description).joined(separator: ", ")
            }),
        ServerSetting(
            "chat-language", .text, "The language of chat posts and /oncall answers: en, de, fr or es.",
            read: { configuration, texts throws(ServerSettingError) in
                let text = texts.last ?? "en"
                guard let language = Language(rawValue: text), language != .pseudo else {
                    throw ServerSettingError(description: "chat-language is en, de, fr or es (got \"\(text)\")")
                }
                configuration.notifications.chatLanguage = language.rawValue
            },
            show: { $0.notifications.chatLanguage }),
        ServerSetting(
            "push-contact", .text,
            "Who runs this server, told to push services with every Web Push: a mailto: or https: URL (docs/PUSH.md).",
            read: { configuration, texts throws(ServerSettingError) in
                let text = texts.last ?? ""
                guard text.hasPrefix("mailto:") || text.hasPrefix("https://"), text.count <= 200,
                    !text.contains(where: { $0 == "\"" || $0 == "\\" || $0.isWhitespace })
                else {
                    throw ServerSettingError(
                        description: "push-contact is a mailto: or https:// URL, such as mailto:oncall@example.com")
                }
                configuration.notifications.pushContact = text
            },
            show: { $0.notifications.pushContact }),
        ServerSetting(
            "web-url", .text,
            "The address people open the web app at, such as https://roster.example.com: where an ntfy notification leads when tapped (docs/PUSH.md).",
            read: { configuration, texts throws(ServerSettingError) in
                let text = texts.last ?? ""
                guard let url = URL(string: text), ["https", "http"].contains(url.scheme ?? ""), url.host != nil,
                    url.query == nil, url.fragment == nil, url.path.isEmpty || url.path == "/", text.count <= 200
                else {
                    throw ServerSettingError(
                        description: "web-url is the web app's address, such as https://roster.example.com")
                }
                configuration.notifications.webURL = text.hasSuffix("/") ? String(text.dropLast()) : text
            },
            show: { $0.notifications.webURL ?? "none" }),
        .text(
            "secrets-key-file", \.secretsKeyFile,
            "The key webhook secrets are sealed with in the store; made if missing. Nodes sharing a store need the same file.",
            shownDefault: "DATA_DIR/secrets.key"),
    ]

    /// The row named `name`.
    public static func named(_ name: String) -> ServerSetting? { all.first { $0.name == name } }

    /// Where a setting's value came from.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case flag
        case environment(String)
        case file(path: String, line: Int)
        case defaultValue

        public var description: String {
            switch self {
            case .flag: "flag"
            case .environment(let name): "environment \(name)"
            case .file(let path, let line): "\(path):\(line)"
            case .defaultValue: "default"
            }
        }
    }

    /// The configuration `serve` runs with: each setting from its flag if given, else its
    /// environment variable, else the file, else the default; then every range checked. Every
    /// problem is reported at once, each naming its setting (and the file's line).
    ///
    /// - Parameter flags: the texts of the flags given, by setting name (a flag given as on: ["1"]).
    public static func configuration(flags: [String: [String]], environment: [String: String], file: ServerConfigFile?)
        throws(ServerSettingError) -> (configuration: ServerConfiguration, sources: [String: Source])
    {
        var configuration = ServerConfiguration.serveDefaults
        var sources: [String: Source] = [:]
        // The file's own (unknown keys, values of the wrong kind) join the values out of range.
        var problems: [String] = file?.problems ?? []
        for setting in all {
            let texts: [String]
            let source: Source
            if let given = flags[setting.name], !given.isEmpty {
                (texts, source) = (given, .flag)
            } else if let text = environment[setting.environmentName] {
                let values =
                    setting.kind == .list
                    ? text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } : [text]
                (texts, source) = (values, .environment(setting.environmentName))
            } else if let file, let entry = file.entries[setting.name] {
                (texts, source) = (entry.texts, .file(path: file.path, line: entry.line))
            } else {
                sources[setting.name] = .defaultValue
                continue
            }
            sources[setting.name] = source
            do {
                try setting.read(texts, into: &configuration)
            } catch {
                problems.append(Self.located(error.description, source))
            }
        }
        for setting in all {
            if let problem = setting.problem(in: configuration) {
                problems.append(Self.located(problem, sources[setting.name] ?? .defaultValue))
            }
        }
        guard problems.isEmpty else {
            throw ServerSettingError(description: Self.inFileOrder(problems).joined(separator: "\n"))
        }
        return (configuration, sources)
    }

    /// A file's problems by line, after the others (stable otherwise).
    private static func inFileOrder(_ problems: [String]) -> [String] {
        func line(_ problem: String) -> Int {
            guard let range = problem.range(of: ": line ") else { return -1 }
            return Int(problem[range.upperBound...].prefix { $0.isNumber }) ?? -1
        }
        return problems.enumerated().sorted { (line($0.element), $0.offset) < (line($1.element), $1.offset) }.map(
            \.element)
    }

    private static func located(_ problem: String, _ source: Source) -> String {
        switch source {
        case .file(let path, let line): "\(path): line \(line): \(problem)"
        case .environment(let name): "\(name): \(problem)"
        case .flag: "--" + problem  // each problem starts with its setting's name
        case .defaultValue: problem
        }
    }
}

extension ServerConfiguration {
    /// Every setting outside its range, each as a sentence naming it (`ServerSettings` checks
    /// each): `RosterServer.run` refuses a configuration with any, so a library caller gets the
    /// same checks as the command.
    public var problems: [String] { ServerSettings.all.compactMap { $0.problem(in: self) } }
}
