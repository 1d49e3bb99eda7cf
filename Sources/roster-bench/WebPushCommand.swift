import ArgumentParser
import Foundation
import RosterBench
import RosterSystem

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

struct PushHandoff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-handoff",
        abstract:
            "One handoff notifying many Web Push subscriptions: a release server on one core sends to a loopback push service."
    )
    @Option(help: "People put on duty by the handoff.") var people = 1_000
    @Option(help: "Subscriptions each (at most 10, the server's cap).") var perPerson = 10
    @Option(help: "Seconds from writing the shifts to the handoff: time enough to subscribe.") var lead: Double = 90

    func run() async throws {
        ProcessLimits.raiseOpenFileLimit()
        let result = try await PushHandoffBenchmark(
            people: people, perPerson: perPerson, lead: lead, serverExecutable: siblingExecutable("roster-server")
        ).run()
        print(
            "push-handoff: \(result.subscriptions) subscriptions (\(people) people × \(perPerson)), server on one core")
        print(
            String(
                format: "  memory per stored subscription: %.0f bytes resident, %.0f bytes in the store",
                result.residentPerSubscription, result.storePerSubscription))
        if let growth = result.residentPeakGrowth {
            print(
                String(
                    format: "  the server's resident memory at most %.1f MB above its size before the handoff",
                    Double(growth) / 1e6))
        }
        print("  messages at the push service: \(result.sent)")
        print(
            String(
                format: "  first %.0f ms after the handoff, last %.0f ms after", result.firstMillis, result.lastMillis))
        print(
            String(
                format: "  %.0f messages per second; server CPU %.3f ms per message", result.perSecond,
                result.cpuMillisPerMessage))
    }
}
