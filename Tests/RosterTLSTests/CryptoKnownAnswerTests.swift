import Dispatch
import RosterTLS
import Synchronization
import Testing

/// HMAC-SHA256 and HKDF against their RFCs' own test vectors (RFC 4231 §4, RFC 5869 §A.1),
/// also from many threads at once: each HMAC copies one kept OpenSSL context.
@Suite(.timeLimit(.minutes(5))) struct CryptoKnownAnswerTests {
    /// RFC 4231's test cases 1, 2 (a key shorter than the output) and 6 (a key longer than a
    /// block, hashed first).
    static let vectors: [(key: [UInt8], data: [UInt8], mac: String)] = [
        (
            [UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xAA, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ]

    @Test func hmacMatchesRFC4231() {
        for vector in Self.vectors {
            #expect(Crypto.hex(Crypto.hmacSHA256(key: vector.key, message: vector.data)) == vector.mac)
        }
        // An empty key and message are allowed (HKDF's extract without a salt uses zeros).
        #expect(
            Crypto.hex(Crypto.hmacSHA256(key: [], message: []))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func hkdfMatchesRFC5869() {
        let keyMaterial = [UInt8](repeating: 0x0B, count: 22)
        let salt = [UInt8](0x00...0x0C), info = [UInt8](0xF0...0xF9)
        let extracted = Crypto.hkdfExtract(salt: salt, keyMaterial: keyMaterial)
        #expect(Crypto.hex(extracted) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        // The test's 42 bytes of output, of which one block (32) is what Web Push expands.
        let expected = "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
        #expect(Crypto.hex(Crypto.hkdfExpand(pseudoRandomKey: extracted, info: info, length: 32)) == expected)
        #expect(
            Crypto.hex(Crypto.hkdf(salt: salt, keyMaterial: keyMaterial, info: info, length: 16))
                == String(expected.prefix(32)))
    }

    @Test func hmacsOnManyThreadsAtOnceAreEachRight() {
        let threads = 8, rounds = 500
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                let vector = Self.vectors[(thread + round) % Self.vectors.count]
                if Crypto.hex(Crypto.hmacSHA256(key: vector.key, message: vector.data)) != vector.mac {
                    wrong.add(1, ordering: .relaxed)
                }
            }
        }
        let count = wrong.load(ordering: .relaxed)
        #expect(count == 0, "\(count) of \(threads * rounds) MACs wrong")
    }
}
