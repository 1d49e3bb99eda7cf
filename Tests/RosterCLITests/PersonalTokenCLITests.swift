import Foundation
import RosterDomain
import RosterTestSupport
import Testing

/// `roster-client token` as a person meets it, with the built binaries on the demo: Grace makes a
/// read-only token, which reads and may not ask for cover; lists it with its limits; revokes it,
/// and it is refused. A personal token makes no other, and a bad lifetime is one sentence.
@Suite(.timeLimit(.minutes(10))) struct PersonalTokenCLITests {
    /// roster-client as Grace Hopper of the demo, with a reader token bound to her that the
    /// server already accepts (made by `roster-server token create`).
    static func grace(_ server: ServerProcess, admin: CLI) async throws -> CLI {
        let created = try await admin.server([
            "token", "create", "--tenant", "demo", "--role", "reader", "--data-dir", server.dataDirectory,
            "--employee", "Grace Hopper",
        ])
        try #require(created.status == 0, "\(created.stderr)")
        let grace = CLI(port: server.port, token: created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let accepted = await eventually(60) { (try? await grace.run(["requests"]))?.status == 0 }
        try #require(accepted, "the server accepts the new token")
        return grace
    }

    @Test func graceMakesAReadOnlyTokenListsItAndRevokesIt() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }
            let grace = try await Self.grace(server, admin: admin)
            defer { TestScratch.remove(grace.home) }

            let made = try await grace.run(["token", "create", "--read-only", "--label", "status light"])
            #expect(made.status == 0, "\(made.stderr)")
            let lines = made.stdout.split(separator: "\n").map(String.init)
            let token = try #require(lines.first, "\(made.stdout)")
            #expect(token.hasPrefix("rst_"))
            #expect(made.stdout.contains("read only, until "), "\(made.stdout)")
            let id = try #require(token.split(separator: "_").dropFirst().first.map(String.init))

            let light = CLI(port: server.port, token: token)
            defer { TestScratch.remove(light.home) }
            let picked = await eventually(60) { (try? await light.run(["now"]))?.status == 0 }
            #expect(picked, "the read-only token reads")
            let cover = try await light.run([
                "request", "cover", "--schedule", "Platform primary", "--from", "tomorrow 10:00", "--to",
                "tomorrow 12:00",
            ])
            #expect(cover.status != 0 && cover.stderr.contains("may only read"), "\(cover.stdout)\(cover.stderr)")
            let another = try await light.run(["token", "create"])
            #expect(another.status != 0 && another.stderr.contains("cannot make another"), "\(another.stderr)")

            let listed = try await grace.run(["token", "list"])
            #expect(
                listed.status == 0 && listed.stdout.contains("\(id)  read only")
                    && listed.stdout.contains("status light"))
            let everyone = try await admin.run(["token", "list", "--json"])
            #expect(everyone.stdout.contains(id), "an admin sees everyone's: \(everyone.stdout)")
            let revoked = try await grace.run(["token", "revoke", id])
            #expect(revoked.status == 0 && revoked.stdout.contains("revoked"), "\(revoked.stderr)")
            let after = try await light.run(["now"])
            #expect(after.status != 0, "a revoked token reads nothing: \(after.stdout)")

            let tooShort = try await grace.run(["token", "create", "--expires-in", "10m"])
            #expect(tooShort.status != 0 && tooShort.stderr.contains("from an hour to a year"), "\(tooShort.stderr)")
            let unreadable = try await grace.run(["token", "create", "--expires-in", "soon"])
            #expect(unreadable.status != 0 && unreadable.stderr.contains("--expires-in"), "\(unreadable.stderr)")
        }
    }
}
