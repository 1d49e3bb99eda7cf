import Foundation
import NIOCore

/// A range of IP addresses in CIDR notation: "10.0.0.0/8", "fd00::/8", or one address.
public struct IPRange: Sendable, Hashable, CustomStringConvertible {
    /// 4 or 16 bytes.
    let network: [UInt8]
    let prefix: Int

    /// nil unless `text` is exactly an IPv4 or IPv6 address, optionally with "/PREFIX" in range.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let bits = bytes.count * 8
        var prefix = bits
        if parts.count == 2 {
            guard parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].count <= 3, let value = Int(parts[1]),
                  (0...bits).contains(value) else { return nil }
            prefix = value
        }
        self.init(bytes: bytes, prefix: prefix)
    }

    init(bytes: [UInt8], prefix: Int) {
        // Only the prefix's bits count: 10.1.2.3/8 is 10.0.0.0/8.
        network = bytes.enumerated().map { index, byte in
            let kept = max(0, min(8, prefix - index * 8))
            return kept == 8 ? byte : byte & ~(0xFF >> kept)
        }
        self.prefix = prefix
    }

    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        return IPRange(bytes: address, prefix: prefix).network == network
    }

    public var description: String {
        let address = network.count == 4 ? network.map(String.init).joined(separator: ".") : Self.ipv6Text(network)
        return "\(address)/\(prefix)"
    }

    /// The bytes of a numeric IPv4 or IPv6 address (inet_pton: no names, no decimal or octal forms).
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }

    static func ipv6Text(_ bytes: [UInt8]) -> String {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Which addresses a webhook may reach: public ones, by default. A webhook URL is the admin's,
/// but the delivery runs inside the server's network: without this an admin of one tenant could
/// have the server post to its cloud metadata service (169.254.169.254), to private services or
/// to the server's own loopback ports, and read their status codes back from the delivery log.
///
/// The check is made on every address a host name resolves to, at delivery time, and the
/// connection goes to the address that was checked (so a name that resolves elsewhere a moment
/// later, DNS rebinding, gains nothing). `allowed` ranges (`--webhook-allow`) are reachable too;
/// a server in loopback development mode may also reach loopback.
public struct WebhookAddressPolicy: Sendable {
    public var allowed: [IPRange]
    public var allowLoopback: Bool

    public init(allowed: [IPRange] = [], allowLoopback: Bool = false) {
        self.allowed = allowed
        self.allowLoopback = allowLoopback
    }

    /// Ranges that are not the public internet, with what they are.
    static let special: [(IPRange, String)] = [
        ("0.0.0.0/8", "a 'this network' address"), ("10.0.0.0/8", "a private address (RFC 1918)"),
        ("100.64.0.0/10", "a carrier-grade NAT address"), ("127.0.0.0/8", "a loopback address"),
        ("169.254.0.0/16", "a link-local address (cloud metadata services live here)"),
        ("172.16.0.0/12", "a private address (RFC 1918)"), ("192.0.0.0/24", "an IETF protocol address"),
        ("192.0.2.0/24", "a documentation address"), ("192.168.0.0/16", "a private address (RFC 1918)"),
        ("198.18.0.0/15", "a benchmarking address"), ("198.51.100.0/24", "a documentation address"),
        ("203.0.113.0/24", "a documentation address"), ("224.0.0.0/4", "a multicast address"),
        ("240.0.0.0/4", "a reserved address"),
        ("::/128", "the unspecified address"), ("::1/128", "a loopback address"), ("100::/64", "a discard address"),
        ("2001:db8::/32", "a documentation address"), ("fc00::/7", "a unique local (private) address"),
        ("fe80::/10", "a link-local address"), ("fec0::/10", "a site-local address"), ("ff00::/8", "a multicast address"),
    ].map { (IPRange($0.0)!, $0.1) }

    static let loopback = [IPRange("127.0.0.0/8")!, IPRange("::1/128")!]

    /// Why `address` may not be reached, or nil when it may.
    public func refusal(of address: [UInt8]) -> String? {
        if allowed.contains(where: { $0.contains(address) }) { return nil }
        // IPv6 forms that carry an IPv4 address are judged by it: IPv4-mapped (::ffff:a.b.c.d),
        // NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::).
        if address.count == 16 {
            if address[0..<10].allSatisfy({ $0 == 0 }) && address[10] == 0xFF && address[11] == 0xFF {
                return refusal(of: Array(address[12..<16]))
            }
            if address[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return refusal(of: Array(address[12..<16])) }
            if address[0] == 0x20 && address[1] == 0x02 { return refusal(of: Array(address[2..<6])) }
        }
        if allowLoopback, Self.loopback.contains(where: { $0.contains(address) }) { return nil }
        return Self.special.first { $0.0.contains(address) }?.1
    }

    /// The sentence for a refused address.
    public func explain(host: String, address: [UInt8], why: String) -> String {
        let text = address.count == 4 ? address.map(String.init).joined(separator: ".") : IPRange.ipv6Text(address)
        let named = text == host ? host : "\(host) (\(text))"
        return "\(named) is \(why): webhooks may reach public addresses only (a server may allow ranges with --webhook-allow)"
    }
}
