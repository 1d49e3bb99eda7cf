import ArgumentParser
import Foundation
import RosterBench

struct WebPush: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web-push",
        abstract: "Web Push's CPU per message on one thread: RFC 8291 encryption, and a VAPID signature.")
    @Option(help: "Messages encrypted.") var messages = 10_000

    func run() async throws {
        let result = try WebPushBenchmark(messages: messages).run()
        print("Web Push, one thread, a 200-byte notice")
        print("  encryption (key, ECDH, HKDF, AES-128-GCM)  \(result.encryption)")
        print(String(format: "    %.0f messages encrypted per second", result.encryptionsPerSecond))
        print("  VAPID token (ES256), once per push service  \(result.signing)")
    }
}
