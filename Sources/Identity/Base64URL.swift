import Foundation

/// base64url without padding (RFC 7515 §2, RFC 4648 §5), as JWS and JWK write their parts.
/// Strict: padding, whitespace, the standard alphabet's `+` and `/`, and a final character
/// with bits set past the data are all refused, so one value has one spelling.
public enum Base64URL {
    public static func decode(_ text: Substring) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in utf8 {
            guard let value = sextet(byte) else { return nil }
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // What is left must be zero bits the encoder added, never data.
        guard buffer == 0 else { return nil }
        return output
    }

    public static func decode(_ text: String) -> [UInt8]? { decode(Substring(text)) }

    /// Foundation's base64 in the URL alphabet, without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Whether `byte` is a character of the URL alphabet.
    public static func isAlphabet(_ byte: UInt8) -> Bool { sextet(byte) != nil }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
