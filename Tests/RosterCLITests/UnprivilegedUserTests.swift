import Foundation
import RosterTestSupport
import Testing

/// The binaries as people and services run them: as an ordinary user, with no capability (a
/// terminal, systemd's unit, the container image). CI runs every other test as root, which hides
/// what only root may do: the listener once asked for TCP_NODELAY at the socket level, which is
/// SO_DEBUG there, a privileged option, so every protocol connection of a server and every
/// connect of a client failed for anyone but root. Here both run as `nobody` (when the test runs
/// as root; otherwise as the test's own user).
@Suite(.timeLimit(.minutes(10)))
struct UnprivilegedUserTests {
    static let user: (uid: uid_t, gid: gid_t)? = getpwnam("nobody").map { ($0.pointee.pw_uid, $0.pointee.pw_gid) }

    /// `program arguments`, as `nobody` when this process is root.
    static func unprivileged(_ program: String, _ arguments: [String]) throws -> (String, [String]) {
        guard geteuid() == 0 else { return (program, arguments) }
        let user = try #require(user, "no user nobody on this machine")
        return (
            "/usr/bin/setpriv",
            ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--", program] + arguments
        )
    }

    /// Gives `directory` to the unprivileged user (when this process is root).
    static func handOver(_ directory: URL) throws {
        guard geteuid() == 0, let user else { return }
        #expect(chown(directory.path, user.uid, user.gid) == 0, "chown \(directory.path)")
    }

    @Test func aServerAndItsClientsWorkWithoutPrivileges() async throws {
        let data = TestScratch.directory("roster-unprivileged")
        defer { TestScratch.remove(data) }
        try Self.handOver(data)
        let binaries = ServerProcess.binDirectory
        let (program, arguments) = try Self.unprivileged(
            binaries.appendingPathComponent("roster-server").path,
            ["serve", "--data-dir", data.path] + ServerProcess.testServeArguments + ["--demo"])
        let server = try await ServerProcess.started(try ChildProcess(program, arguments), dataDirectory: data.path)
        try await withCleanup(server, cleanUp: { await $0.terminate() }) { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(cli.home) }
            try Self.handOver(cli.home)
            let client = binaries.appendingPathComponent("roster-client").path

            let (nowProgram, nowArguments) = try Self.unprivileged(client, ["now"])
            let now = try ChildProcess(nowProgram, nowArguments, environment: cli.environment)
            #expect(await now.waitForExit(timeout: .seconds(60)) == 0, "\(now.output)")
            #expect(now.stdout.contains("On duty"), "\(now.output)")

            let (watchProgram, watchArguments) = try Self.unprivileged(client, ["watch", "--json"])
            let watch = try ChildProcess(watchProgram, watchArguments, environment: cli.environment)
            try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                #expect(await eventually(30) { watch.stdout.contains(#""event":"synced""#) }, "\(watch.output)")
                let set = try await cli.run(["admin", "motd", "set", "Pushed without privileges", "--reason", "test"])
                #expect(set.status == 0, "\(set.stderr)")
                #expect(
                    await eventually(30) { watch.stdout.contains("Pushed without privileges") }, "\(watch.stdout)")
            }
        }
    }
}
