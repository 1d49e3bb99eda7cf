extension HTTPAPI.Request {
    /// Whether the Host header names this machine's loopback: `localhost` (or a name under it,
    /// RFC 6761), an address in 127.0.0.0/8 or `[::1]`, with or without a port. A request
    /// without one counts as local: a browser, which DNS rebinding needs, always sends it.
    package var hostIsLoopback: Bool {
        guard let host, !host.isEmpty else { return true }
        return Self.isLoopbackHost(host)
    }

    /// The host of a Host header value, without its port, is a loopback name or address.
    package static func isLoopbackHost(_ value: String) -> Bool {
        var name = Substring(value.lowercased())
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let rest = name[name.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && isPort(rest.dropFirst())) else { return false }
            return name[name.index(after: name.startIndex)..<close] == "::1"
        }
        if let colon = name.lastIndex(of: ":") {
            guard isPort(name[name.index(after: colon)...]) else { return false }
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        // 127.a.b.c, written as four decimal numbers 0-255 (no other IPv4 spelling).
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part)! <= 255
        }
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber } && Int(text)! <= 65_535
    }
}
