/// FNV-1a, 64 bits, of a text's UTF-8: the same on every run and platform (Swift's `Hasher` is
/// seeded per process), for ids derived from content.
public enum StableHash {
    public static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// `fnv1a` as 16 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        let digits = String(fnv1a(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
