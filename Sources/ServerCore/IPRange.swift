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
                (0...bits).contains(value)
            else { return nil }
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

    package func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        return IPRange(bytes: address, prefix: prefix).network == network
    }

    public var description: String {
        let address = network.count == 4 ? network.map(String.init).joined(separator: ".") : Self.ipv6Text(network)
        return "\(address)/\(prefix)"
    }

    /// The bytes of a numeric IPv4 or IPv6 address (inet_pton: no names, no decimal or octal forms).
    package static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }

    /// The address a URL's host names when it is a literal, read as the resolver reads it: IPv4
    /// in every form inet_aton(3) takes (decimal `2852039166`, octal `0251.0376.0251.0376`, hex
    /// `0xa9fea9fe`, short `169.254.43518`), or IPv6. nil for a name. Webhook URLs are judged by
    /// this at add time, so that no spelling of an internal address passes as a name.
    package static func bytes(ofHost text: String) -> [UInt8]? {
        var v4 = in_addr()
        // inet_aton stops at white space; a host with any is not a literal.
        if !text.contains(where: \.isWhitespace), inet_aton(text, &v4) != 0 {
            return withUnsafeBytes(of: v4) { Array($0) }
        }
        return bytes(of: text)
    }

    package static func ipv6Text(_ bytes: [UInt8]) -> String {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
