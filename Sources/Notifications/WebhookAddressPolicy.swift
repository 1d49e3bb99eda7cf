import Foundation
import NIOCore
import RosterServerCore

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
        ("fe80::/10", "a link-local address"), ("fec0::/10", "a site-local address"),
        ("ff00::/8", "a multicast address"),
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
            if address[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] {
                return refusal(of: Array(address[12..<16]))
            }
            if address[0] == 0x20 && address[1] == 0x02 { return refusal(of: Array(address[2..<6])) }
        }
        if allowLoopback, Self.loopback.contains(where: { $0.contains(address) }) { return nil }
        return Self.special.first { $0.0.contains(address) }?.1
    }

    /// The sentence for a refused address.
    public func explain(host: String, address: [UInt8], why: String) -> String {
        let text = address.count == 4 ? address.map(String.init).joined(separator: ".") : IPRange.ipv6Text(address)
        let named = text == host ? host : "\(host) (\(text))"
        return
            "\(named) is \(why): webhooks may reach public addresses only (a server may allow ranges with --webhook-allow)"
    }
}
