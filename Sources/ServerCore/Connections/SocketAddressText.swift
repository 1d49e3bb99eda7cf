import NIOCore

extension SocketAddress {
    /// "203.0.113.7:51234", "[2001:db8::1]:51234": how logs, the audit log and start-up lines
    /// write an address (NIO's own description is "[IPv4]203.0.113.7/203.0.113.7:51234").
    package var text: String {
        guard let ip = ipAddress else { return pathname ?? "\(self)" }
        let host = ip.contains(":") ? "[\(ip)]" : ip
        return port.map { "\(host):\($0)" } ?? host
    }
}
