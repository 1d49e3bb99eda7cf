/// Short random identifiers: a prefix and 12 base-32 characters (60 bits).
package enum IdentifierFactory {
    private static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")

    package static func make(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + "_" + String((0..<12).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }
}
