import Foundation

/// HOST:PORT as people write it: "roster.example.com:7400", "127.0.0.1:7400", "[::1]:7400".
/// The one parser for `--listen`, `--server` and every other address; a URL ("http://...") is
/// not an address.
public struct HostPort: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// - Parameters:
    ///   - allowingPortZero: a listener may ask for port 0 (any free port).
    ///   - defaultHost: the host when the text has none (":7400"); nil makes that an error.
    public init?(parsing text: String, allowingPortZero: Bool = false, defaultHost: String? = nil) {
        guard !text.contains("/"), let colon = text.lastIndex(of: ":"),
            let port = Int(text[text.index(after: colon)...]),
            ((allowingPortZero ? 0 : 1)...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            return nil  // an IPv6 address needs brackets: "[::1]:7400"
        }
        if host.isEmpty {
            guard let defaultHost else { return nil }
            host = defaultHost
        }
        self.init(host: host, port: port)
    }

    /// "host:port", with brackets around an IPv6 address.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension HostPort {
    /// Whether `host` (a name or an address, without brackets) is this machine's loopback:
    /// `localhost` or a name under it (RFC 6761), an address in 127.0.0.0/8, or `::1`.
    public static func isLoopback(host: String) -> Bool {
        var name = Substring(host.lowercased())
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if name == "::1" { return true }
        if name.hasSuffix(".") { name = name.dropLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        // 127.a.b.c, written as four decimal numbers 0-255 (no other IPv4 spelling).
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part)! <= 255
        }
    }
}
