import ArgumentParser
import RosterBench

struct SignIn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract:
            "Sign-in with an identity provider, the server's part: a callback without the token exchange, a session check, memory per session."
    )
    @Option(help: "Sign-ins timed.") var signIns = 2_000
    @Option(help: "People in the directory each sign-in is resolved against.") var people = 1_000
    @Option(help: "Sessions opened to measure their memory (a node holds at most 10,000).") var sessions = 10_000

    func run() async throws {
        let result = try await SignInBenchmark(signIns: signIns, people: people, sessions: sessions).run()
        print("sign-in: ES256 ID tokens, a directory of \(people) people")
        print("  callback, without the exchange and the store  \(result.callback)")
        print("    of which the ID token's verification       \(result.verifyOnly)")
        let check = result.sessionCheck
        print(
            String(
                format: "  session check (session, then its token)      p50 %.1f µs  p99 %.1f µs  (n=%d)",
                check.p50 * 1000, check.p99 * 1000, check.count))
        print(String(format: "  memory per session                           %.0f bytes", result.bytesPerSession))
    }
}
