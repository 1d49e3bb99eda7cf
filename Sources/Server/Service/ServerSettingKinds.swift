import Foundation
import RosterDomain
import RosterServerCore

/// One setting of `roster-server serve`, defined once: its name is the flag (`--NAME`), the
/// environment variable (`ROSTER_NAME`, capitals and underscores) and the config-file key; the
/// row says what it means, reads its text into a `ServerConfiguration` (one grammar per kind),
/// shows the value a configuration holds (so defaults are shown from the defaults themselves),
/// and checks its range. `ServerConfiguration.problems` runs every row's check, so a library
/// caller gets the same refusals as the command.
public struct ServerSetting: Sendable {
    public enum Kind: Sendable {
        /// One value: an address, a path, a word.
        case text
        /// A whole number.
        case number
        /// On or off: a flag, ROSTER_NAME=1, `name: true`.
        case flag
        /// Repeatable: the flag again, a comma-separated variable, a YAML list.
        case list
    }

    public let name: String
    public let kind: Kind
    /// One sentence; `helpLine` adds the variable and the default.
    public let help: String
    private let read: @Sendable (inout ServerConfiguration, [String]) throws(ServerSettingError) -> Void
    private let shown: @Sendable (ServerConfiguration) -> String
    private let checked: @Sendable (ServerConfiguration) -> String?

    public var environmentName: String { "ROSTER_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The flag's help: the sentence, the variable, the default.
    public var helpLine: String {
        let value = shown(.serveDefaults)
        let environment =
            kind == .flag
            ? "\(environmentName)=1" : kind == .list ? "\(environmentName), comma-separated" : environmentName
        return "\(help) (env: \(environment)\(value.isEmpty ? "" : "; default: \(value)"))"
    }

    /// Reads `texts` (one, or several for a list) into `configuration`; a text this setting's
    /// grammar does not take throws a sentence naming the setting.
    public func read(_ texts: [String], into configuration: inout ServerConfiguration) throws(ServerSettingError) {
        try read(&configuration, texts)
    }

    /// The value `configuration` holds, as it would be written; "" for none.
    public func value(in configuration: ServerConfiguration) -> String { shown(configuration) }

    /// What is wrong with the value `configuration` holds, if anything.
    public func problem(in configuration: ServerConfiguration) -> String? { checked(configuration) }

    init(
        _ name: String, _ kind: Kind, _ help: String,
        read: @escaping @Sendable (inout ServerConfiguration, [String]) throws(ServerSettingError) -> Void,
        show: @escaping @Sendable (ServerConfiguration) -> String,
        check: @escaping @Sendable (ServerConfiguration) -> String? = { _ in nil }
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.read = read
        shown = show
        checked = check
    }
}

/// A setting's text its grammar does not take.
public struct ServerSettingError: Error, CustomStringConvertible, Equatable {
    public let description: String
}

// The grammars of the settings: one reader for each kind of value, used by the rows of
// `ServerSettings.all`.

extension ServerSetting {
    /// A whole number within `range`.
    static func number(
        _ name: String, _ path: WritableKeyPath<ServerConfiguration, Int> & Sendable, _ range: ClosedRange<Int>,
        _ help: String
    ) -> ServerSetting {
        ServerSetting(
            name, .number, help,
            read: { configuration, texts throws(ServerSettingError) in
                configuration[keyPath: path] = try wholeNumber(name, texts)
            }, show: { "\($0[keyPath: path])" },
            check: { configuration in
                let value = configuration[keyPath: path]
                return range.contains(value)
                    ? nil : "\(name) is \(range.lowerBound) to \(range.upperBound) (got \(value))"
            })
    }

    /// A duration given in `unit` (milliseconds or days), within `range` of that unit.
    static func duration(
        _ name: String, _ path: WritableKeyPath<ServerConfiguration, Duration> & Sendable, in unit: DurationUnit,
        _ range: ClosedRange<Int>, _ help: String
    ) -> ServerSetting {
        ServerSetting(
            name, .number, help,
            read: { configuration, texts throws(ServerSettingError) in
                let count = try wholeNumber(name, texts)
                // Out of the range it is refused by the check; here it only has to fit a Duration.
                configuration[keyPath: path] = unit.duration(max(-unit.limit, min(unit.limit, Int64(count))))
            }, show: { unit.count($0[keyPath: path]).description },
            check: { configuration in
                let count = unit.count(configuration[keyPath: path])
                return (Int64(range.lowerBound)...Int64(range.upperBound)).contains(count)
                    ? nil
                    : "\(name) is \(range.lowerBound) to \(range.upperBound) (got \(count))"
            })
    }

    /// On or off. Only turning it on does anything: a flag cannot be given as off.
    static func flag(_ name: String, _ path: WritableKeyPath<ServerConfiguration, Bool> & Sendable, _ help: String)
        -> ServerSetting
    {
        ServerSetting(
            name, .flag, help,
            read: { configuration, texts throws(ServerSettingError) in
                configuration[keyPath: path] = try onOff(name, texts)
            }, show: { $0[keyPath: path] ? "true" : "false" })
    }

    static func onOff(_ name: String, _ texts: [String]) throws(ServerSettingError) -> Bool {
        switch texts {
        case ["1"], ["true"]: return true
        case ["0"], ["false"]: return false
        default:
            throw ServerSettingError(
                description: "\(name) is 1 or 0, true or false (got \"\(texts.joined(separator: ","))\")")
        }
    }

    /// One word, path or name, as given.
    static func text(
        _ name: String, _ path: WritableKeyPath<ServerConfiguration, String?> & Sendable, _ help: String,
        shownDefault: String = ""
    ) -> ServerSetting {
        ServerSetting(
            name, .text, help,
            read: { configuration, texts throws(ServerSettingError) in
                configuration[keyPath: path] = try single(name, texts)
            }, show: { $0[keyPath: path] ?? shownDefault })
    }

    /// Exactly one value; an empty one is refused.
    static func single(_ name: String, _ texts: [String]) throws(ServerSettingError) -> String {
        guard texts.count == 1, let text = texts.first, !text.isEmpty else {
            throw ServerSettingError(
                description: "\(name) takes one value (got \(texts.isEmpty ? "none" : "\(texts.count)"))")
        }
        return text
    }

    static func wholeNumber(_ name: String, _ texts: [String]) throws(ServerSettingError) -> Int {
        let text = try single(name, texts)
        guard let value = Int(text) else {
            throw ServerSettingError(description: "\(name): expected a whole number (got \"\(text)\")")
        }
        return value
    }

    static func address(_ name: String, _ texts: [String]) throws(ServerSettingError) -> HostPort {
        let text = try single(name, texts)
        guard let address = HostPort(parsing: text, allowingPortZero: true, defaultHost: "0.0.0.0") else {
            throw ServerSettingError(description: "\(name) must be HOST:PORT, e.g. 127.0.0.1:7400 (got \"\(text)\")")
        }
        return address
    }
}

/// The unit a duration setting is given in.
enum DurationUnit: Sendable {
    case milliseconds, days

    var limit: Int64 { self == .days ? 100_000_000 : Int64.max / 1_000_000 }

    func duration(_ count: Int64) -> Duration { self == .days ? .seconds(count * 86_400) : .milliseconds(count) }

    func count(_ duration: Duration) -> Int64 {
        self == .days ? duration.components.seconds / 86_400 : duration.milliseconds
    }
}
