import Foundation

/// Case- and diacritic-insensitive text handling shared by search, sorting and name checks.
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        // ASCII (most names) folds to its lowercase: done here, as Foundation's folding costs
        // ~2 µs a string and a 12,000-person directory folds every name when it is loaded.
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            if !utf8.contains(where: { (0x41...0x5A).contains($0) }) { return text }
            return String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Whether ASCII `haystack`, lowercased, contains ASCII lowercase `needle`; nil when either
    /// holds another byte (then folding decides).
    static func asciiContains(_ haystack: UnsafeBufferPointer<UInt8>, lowercased needle: UnsafeBufferPointer<UInt8>)
        -> Bool?
    {
        guard !needle.contains(where: { $0 >= 0x80 }), !haystack.contains(where: { $0 >= 0x80 }) else { return nil }
        guard needle.count <= haystack.count else { return false }
        guard let first = needle.first else { return true }
        @inline(__always) func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
        for start in 0...(haystack.count - needle.count) where lower(haystack[start]) == first {
            var offset = 1
            while offset < needle.count, lower(haystack[start + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }

    public static func compare(_ a: String, _ b: String) -> ComparisonResult {
        let fa = fold(a), fb = fold(b)
        return fa == fb ? .orderedSame : (fa < fb ? .orderedAscending : .orderedDescending)
    }
}
