import Foundation
import RosterClient
import RosterDomain
import RosterTestSupport
import Testing

/// Bad cache files (part of the bad-input catalogue): each is refused with its reason, never
/// trusted, and a good file next to it still loads.
@Suite(.timeLimit(.minutes(10))) struct CacheCatalogueTests {
    static func good() throws -> (RosterCacheFile, Data) {
        let file = RosterCacheFile(directory: temporaryDirectory(), server: "127.0.0.1:1", tenant: "")
        let state = RosterState(
            tenant: Tenant(id: "t", name: "T"), employees: [Employee(id: "e", firstName: "A", lastName: "B")])
        try file.save(CachedRoster(state: state, epoch: 1, revision: 9, syncedAt: Date()))
        return (file, try Data(contentsOf: file.url))
    }

    static let cases: [(String, @Sendable (Data) -> Data, CacheProblem)] = [
        ("an empty file", { _ in Data() }, .corrupt("not a roster cache file")),
        ("text instead of a cache", { _ in Data("hello, I am not a cache".utf8) }, .corrupt("not a roster cache file")),
        (
            "a wrong magic",
            {
                var d = $0; d[0] = UInt8(ascii: "X"); return d
            }, .corrupt("not a roster cache file")
        ),
        (
            "a flipped body byte",
            {
                var d = $0; d[d.count - 3] ^= 0xFF; return d
            }, .corrupt("checksum mismatch")
        ),
        (
            "a flipped checksum byte",
            {
                var d = $0; d[33] ^= 0x01; return d
            }, .corrupt("checksum mismatch")
        ),
        (
            "a header revision that is not the body's",
            {
                var d = $0; d[31] ^= 0x01; return d
            }, .corrupt("the header's revision does not match the body")
        ),
        ("a torn write (half the file)", { $0.prefix($0.count / 2) }, .corrupt("")),
        ("trailing garbage", { $0 + Data([1, 2, 3]) }, .corrupt("")),
        (
            "a length field past the end",
            {
                var d = $0; d[36] = 0x7F; return d
            }, .corrupt("")
        ),
        (
            "a body that checksums but does not decode",
            { data in
                var bytes = [UInt8](data.prefix(40))
                let body: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
                let crc = CRC32Probe.checksum(body)
                bytes.replaceSubrange(32..<36, with: withUnsafeBytes(of: crc.bigEndian, Array.init))
                bytes.replaceSubrange(36..<40, with: withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init))
                return Data(bytes + body)
            }, .corrupt("the body does not decode")
        ),
    ]

    @Test(arguments: 0..<cases.count)
    func aBadCacheFileIsRefusedWithItsReason(case index: Int) throws {
        let (name, damage, expected) = Self.cases[index]
        let (file, bytes) = try Self.good()
        try damage(bytes).write(to: file.url)
        do {
            _ = try file.load()
            Issue.record("\(name) was loaded")
        } catch {
            guard case .corrupt(let reason) = error, case .corrupt(let expectedReason) = expected else {
                Issue.record("\(name): \(error)")
                return
            }
            if !expectedReason.isEmpty { #expect(reason == expectedReason, "\(name)") }
        }
        try bytes.write(to: file.url)
        #expect(try file.load()?.revision == 9, "the intact file loads")
    }

    /// A file of the first layout (no epoch and revision in its header) still loads; the header
    /// alone cannot tell its revision, so a one-shot read reads it whole.
    @Test func aFileOfTheFirstLayoutStillLoads() throws {
        let (file, bytes) = try Self.good()
        var first = Array("RSTRCAC1".utf8) + [UInt8](bytes[8..<16]) + [UInt8](bytes[32..<40]) + [UInt8](bytes[40...])
        try Data(first).write(to: file.url)
        #expect(try file.load()?.revision == 9)
        #expect(file.header() == nil)
        first[0] = UInt8(ascii: "X")
        try Data(first).write(to: file.url)
        #expect(throws: CacheProblem.self) { try file.load() }
    }

    @Test func theHeaderSaysTheRevisionAndTouchChangesOnlyTheAge() throws {
        let (file, bytes) = try Self.good()
        #expect(file.header()?.revision == 9 && file.header()?.epoch == 1)
        let later = Date(timeIntervalSince1970: 2_000_000_000)
        try file.touch(syncedAt: later)
        #expect(file.header()?.syncedAt == later)
        #expect(try file.load()?.syncedAt == later)
        #expect(try Data(contentsOf: file.url).dropFirst(16) == bytes.dropFirst(16), "only the age changed")
    }
}

/// CRC-32 (IEEE), to forge a body whose checksum matches.
enum CRC32Probe {
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }
}
