import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP, which `systemctl reload` sends: the log level is read again from the configuration
/// and the TLS certificate from its files, without dropping a connection. systemd is told
/// RELOADING, then READY. A bad configuration or certificate is logged and the old one kept.
public struct HangupReload: Service, CustomStringConvertible {
    private let server: RosterServer
    private let logLevels: LogLevelSwitch
    private let readLogLevel: @Sendable () throws -> Logger.Level?
    private let logger: Logger

    /// `readLogLevel` says the level the configuration gives now (nil: none given).
    public init(
        server: RosterServer, logLevels: LogLevelSwitch, logger: Logger,
        readLogLevel: @escaping @Sendable () throws -> Logger.Level?
    ) {
        self.server = server
        self.logLevels = logLevels
        self.readLogLevel = readLogLevel
        self.logger = logger
    }

    public var description: String { "HangupReload" }

    public func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangups.cancelOnGracefulShutdown() {
            await reload()
        }
    }

    func reload() async {
        SystemdNotify.send("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotify.monotonicMicroseconds)")
        do {
            let level = try readLogLevel() ?? .info
            if level != logLevels.level {
                logLevels.level = level
                logger.notice("SIGHUP: log level is now \(level)")
            }
        } catch {
            logger.error("SIGHUP: the configuration does not load, the log level stays \(logLevels.level): \(error)")
        }
        server.reloadDeliveryPause()
        do {
            try await server.reloadCertificates()
        } catch {
            logger.error("SIGHUP: the TLS certificate does not load, the old one stays: \(error)")
        }
        SystemdNotify.send("READY=1")
    }
}
