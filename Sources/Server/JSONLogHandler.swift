import Foundation
import Logging
import RosterDomain
#if canImport(Glibc)
    import Glibc
#endif

/// Log records as JSON lines on standard error, for journald and log shippers
/// (`roster-server serve --log-format json`):
///
///     {"time":"2026-11-23T13:20:47.123Z","level":"notice","label":"roster.server","key":"value",...,"message":"..."}
///
/// Metadata keys sit at the top level (a key named like a fixed one gets a `metadata.` prefix);
/// `message` comes last. Each record is one write(2), so lines from several threads never interleave.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let fixed: Set<String> = ["time", "level", "label", "message", "error"]
        var fields = [("time", Self.timestamp()), ("level", event.level.rawValue), ("label", label)]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            fields.append((fixed.contains(key) ? "metadata." + key : key, "\(value)"))
        }
        if let error = event.error { fields.append(("error", "\(error)")) }
        fields.append(("message", event.message.description))
        let text =
            "{" + fields.map { "\(JSONText.quoted($0.0)):\(JSONText.quoted($0.1))" }.joined(separator: ",") + "}\n"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    static func timestamp() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
