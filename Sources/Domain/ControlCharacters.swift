/// Text from a server, a file or another person must never drive a terminal: an escape sequence
/// in a name could clear the screen, retitle the window or fake a line. Servers refuse control
/// characters in text fields; clients strip them before anything reaches a terminal.
public enum ControlCharacters {
    /// C0 controls, DEL, C1 controls, and the bidirectional overrides that reorder what is shown.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true  // LRE…RLO, LRI…PDI
        default: return false
        }
    }

    /// Whether `text` holds a control character; `allowingLineBreaks` permits "\n" and "\t"
    /// (a motd or biography may have several lines).
    /// Read as UTF-8 bytes in one loop, since a table or a page of names is mostly other text:
    /// each control is known by its leading bytes (C0 and DEL are one byte, C1 is C2 80–9F, the
    /// overrides are E2 80 AA–AE and E2 81 A6–A9).
    public static func contains(in text: String, allowingLineBreaks: Bool = false) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x0A where allowingLineBreaks, 0x09 where allowingLineBreaks: break
                case 0x00...0x1F, 0x7F: return true
                case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]): return true
                case 0xE2 where index + 2 < bytes.count:
                    let second = bytes[index + 1], third = bytes[index + 2]
                    if second == 0x80 && (0xAA...0xAE).contains(third)
                        || second == 0x81 && (0xA6...0xA9).contains(third)
                    {
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        }
    }

    /// Whether `text` is printable ASCII only (and line breaks, when allowed): such text needs no
    /// stripping and is one terminal cell a byte. Read as bytes in one loop, since most output is
    /// such text and a 12,000-row table is a megabyte of it.
    public static func isPrintableASCII(_ text: String, allowingLineBreaks: Bool = false) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte < 0x20 || byte >= 0x7F {
                if byte == 0x0A && allowingLineBreaks { continue }
                return false
            }
            return true
        }
    }

    /// `text` safe for a terminal: escape sequences (ESC [ … final byte, ESC ] … BEL/ST, and the
    /// like) removed with their parameters, other controls dropped; line breaks and tabs kept
    /// when `keepLineBreaks`, else each becomes a space.
    public static func stripped(_ text: String, keepLineBreaks: Bool = false) -> String {
        // Printable ASCII and line breaks (most output) hold nothing to strip: checked by byte.
        if isPrintableASCII(text, allowingLineBreaks: keepLineBreaks) { return text }
        // Otherwise only a control that is not a kept line break means work: a page of names
        // with one "ö" on it must not be rebuilt scalar by scalar.
        guard contains(in: text, allowingLineBreaks: keepLineBreaks) else { return text }
        var result = String.UnicodeScalarView()
        result.reserveCapacity(text.utf8.count)
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x0A, 0x09:
                result.append(keepLineBreaks ? scalar : " ")
            case 0x1B:  // ESC: drop the sequence it starts
                guard let kind = scalars.popFirst() else { break }
                if kind == "[" {  // CSI: parameters and intermediates, then a final byte 0x40-0x7E
                    while let next = scalars.popFirst(), !(0x40...0x7E).contains(next.value) {}
                } else if kind == "]" || kind == "P" || kind == "_" || kind == "^" {
                    // OSC, DCS, APC, PM: up to BEL or ESC \
                    while let next = scalars.popFirst() {
                        if next.value == 0x07 { break }
                        if next.value == 0x1B { _ = scalars.popFirst(); break }
                    }
                }
            case 0x9B:  // C1 CSI
                while let next = scalars.popFirst(), !(0x40...0x7E).contains(next.value) {}
            default:
                if !isControl(scalar) { result.append(scalar) }
            }
        }
        return String(result)
    }
}
