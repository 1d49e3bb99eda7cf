import CompressNIO
import NIOCore

/// The installed web app's icon (docs/PUSH.md): a clock face, white on the app's blue, drawn
/// here as a PNG (a two-colour palette, deflated) at the sizes a manifest names, so the project
/// holds no image files. The face stays inside the middle 80 %, the safe zone of a maskable icon.
enum AppIcon {
    static let themeColor = "#1f4e79"
    static let sizes = [192, 512]

    /// The icon as a PNG of `size` × `size` pixels.
    static func png(size: Int) -> [UInt8] {
        let centre = Double(size) / 2, radius = Double(size) * 0.32, ring = Double(size) * 0.045
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity(size * (size + 1))
        for y in 0..<size {
            scanlines.append(0)  // no filter
            for x in 0..<size {
                let dx = Double(x) + 0.5 - centre, dy = Double(y) + 0.5 - centre
                let distance = (dx * dx + dy * dy).squareRoot()
                let onRing = abs(distance - radius) <= ring
                // The hands: to twelve o'clock and to three, from the centre.
                let hourHand = abs(dx) <= ring && dy <= 0 && -dy <= radius * 0.7
                let minuteHand = abs(dy) <= ring && dx >= 0 && dx <= radius * 0.55
                scanlines.append(onRing || hourHand || minuteHand ? 1 : 0)
            }
        }
        // PNG's image data is a zlib stream (RFC 1950): compress-nio's deflate is raw, so the
        // header and the Adler-32 of the scanlines go around it here.
        var buffer = ByteBuffer(bytes: scanlines)
        let deflated = (try? buffer.compress(with: .deflate())).map { Array($0.readableBytesView) } ?? []
        let compressed = [0x78, 0x9C] + deflated + bigEndian(adler32(scanlines))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(size)) + bigEndian(UInt32(size)) + [8, 3, 0, 0, 0])
        png += chunk("PLTE", [0x1F, 0x4E, 0x79, 0xFF, 0xFF, 0xFF])
        png += chunk("IDAT", compressed)
        png += chunk("IEND", [])
        return png
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// PNG's CRC-32 (ISO 3309, the polynomial 0xEDB88320 reflected).
    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// `/assets/manifest.webmanifest`: what makes the web app installable.
    static let manifest = """
        {
          "name": "Roster",
          "short_name": "Roster",
          "description": "Who is on duty, your shifts, and the people to call.",
          "start_url": "/",
          "scope": "/",
          "display": "standalone",
          "background_color": "#ffffff",
          "theme_color": "\(themeColor)",
          "icons": [
            {"src": "/assets/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": "/assets/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": "/assets/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"}
          ]
        }
        """
}
