import RosterDomain

extension HTTPAPI.Request {
    /// Whether the Host header names this machine's loopback: `localhost` (or a name under it,
    /// RFC 6761), an address in 127.0.0.0/8 or `[::1]`, with or without a port. A request
    /// without one counts as local: a browser, which DNS rebinding needs, always sends it.
    package var hostIsLoopback: Bool {
        guard let host, !host.isEmpty else { return true }
        return Self.isLoopbackHost(host)
    }

    /// The host of a Host header value (HOST:PORT read by `HostPort`, or a host alone) is a
    /// loopback name or address.
    package static func isLoopbackHost(_ value: String) -> Bool {
        let value = value.lowercased()
        var name: Substring
        if let parsed = HostPort(parsing: value) {
            name = Substring(parsed.host)
        } else if value.hasPrefix("["), value.hasSuffix("]") {
            name = value.dropFirst().dropLast()
        } else if !value.contains(":") {
            name = Substring(value)
        } else {
            return false  // a port that is not one, or an IPv6 address without brackets
        }
        return HostPort.isLoopback(host: String(name))
    }
}
