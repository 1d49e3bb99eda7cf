import Logging
import Synchronization

/// The log level every logger of the process obeys, changeable while running (SIGHUP re-reads it
/// from the config file). `SwitchedLogHandler` reads it on each call: an atomic load.
public final class LogLevelSwitch: Sendable {
    private let raw: Atomic<Int>
    private static let levels = Logger.Level.allCases

    public init(_ level: Logger.Level) { raw = Atomic(Self.levels.firstIndex(of: level) ?? 2) }

    public var level: Logger.Level {
        get { Self.levels[raw.load(ordering: .relaxed)] }
        set { raw.store(Self.levels.firstIndex(of: newValue) ?? 2, ordering: .relaxed) }
    }
}

/// Wraps a log handler so that its level is the switch's.
public struct SwitchedLogHandler: LogHandler {
    private var inner: any LogHandler
    private let levels: LogLevelSwitch
    /// A level one logger sets for itself (a library's chatty background logger): it can only
    /// be quieter than the switch.
    private var floor: Logger.Level = .trace

    public init(_ inner: any LogHandler, levels: LogLevelSwitch) {
        self.inner = inner
        self.levels = levels
    }

    /// The switch's level, or the logger's own if that is higher.
    public var logLevel: Logger.Level {
        get { max(levels.level, floor) }
        set { floor = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        inner.log(event: event)
    }
}
