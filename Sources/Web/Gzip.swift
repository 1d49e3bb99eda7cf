import CompressNIO
import NIOCore
import RosterHTTP

/// Pages and assets are sent gzip-compressed to a browser that accepts it (they shrink to a
/// sixth or less: a directory of a thousand people is 230 KB of HTML). Pages are compressed where
/// they are rendered, on the tenant work pool, never on an event loop; the assets once.
enum Gzip {
    /// Smaller bodies go as they are: the gzip header and the work cost more than they save.
    static let minimumBytes = 1_024

    /// Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0).
    static func accepted(by request: HTTPAPI.Request) -> Bool {
        guard let header = request.acceptEncoding else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "gzip" || parts.first == "x-gzip" else { continue }
            // "gzip;q=0" refuses it; a weight that is not a number is read as refusing too.
            guard let weight = parts.dropFirst().first(where: { $0.hasPrefix("q=") }) else { return true }
            return (Double(weight.dropFirst(2)) ?? 0) > 0
        }
        return false
    }

    /// `bytes` compressed when `wanted` and worth it, and whether they were.
    static func encode(_ bytes: [UInt8], wanted: Bool) -> (body: [UInt8], compressed: Bool) {
        guard wanted, bytes.count >= minimumBytes else { return (bytes, false) }
        var buffer = ByteBuffer(bytes: bytes)
        guard let compressed = try? buffer.compress(with: .gzip()) else { return (bytes, false) }
        return (Array(compressed.readableBytesView), true)
    }

    /// The headers a body so sent needs; every page says it varies with Accept-Encoding.
    static func headers(compressed: Bool) -> [(String, String)] {
        compressed ? [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")] : [("Vary", "Accept-Encoding")]
    }
}
