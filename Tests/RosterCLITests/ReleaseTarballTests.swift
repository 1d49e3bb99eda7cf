import Foundation
import RosterProtocol
import RosterTestSupport
import Testing

/// A release tarball (scripts/release), unpacked and run from the unpacked files only:
/// `--version` names the release and its commit, the Swift runtime is linked in, man pages,
/// completions and the unit are there, and a demo server serves a watching client.
/// Runs when ROSTER_RELEASE_TARBALL names a tarball (locally: `scripts/release-check`). CI builds
/// the tarball beside the suite, so the test waits for the file to appear (scripts/release renames
/// it into place whole), up to 15 minutes, or until `TARBALL.failed` says the build failed.
@Suite(
    .serialized, .timeLimit(.minutes(20)),
    .enabled(
        if: ProcessInfo.processInfo.environment["ROSTER_RELEASE_TARBALL"] != nil, "ROSTER_RELEASE_TARBALL is not set"))
struct ReleaseTarballTests {
    static func run(_ tool: String, _ arguments: [String]) async throws -> (output: String, status: Int32) {
        let child = try ChildProcess(tool, arguments)
        guard let status = await child.waitForExit(timeout: .seconds(60)) else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("\(tool) did not exit")
        }
        return (child.output, status)
    }

    @Test func theUnpackedTarballRunsAndServesAWatchingClient() async throws {
        let tarball = try #require(ProcessInfo.processInfo.environment["ROSTER_RELEASE_TARBALL"])
        let files = FileManager.default
        let appeared = await eventually(15 * 60) {
            files.fileExists(atPath: tarball) || files.fileExists(atPath: tarball + ".failed")
        }
        try #require(
            appeared && !files.fileExists(atPath: tarball + ".failed"), "the release tarball was not built: \(tarball)")
        let scratch = TestScratch.directory("roster-release")
        defer { TestScratch.remove(scratch) }
        let unpacked = try await Self.run("/usr/bin/tar", ["-xzf", tarball, "-C", scratch.path])
        #expect(unpacked.status == 0, "\(unpacked.output)")
        let top = try #require(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).first { $0.hasPrefix("roster-") })
        let root = scratch.appendingPathComponent(top)
        let bin = root.appendingPathComponent("bin")

        for tool in ["roster-server", "roster-client"] {
            let version = try await Self.run(bin.appendingPathComponent(tool).path, ["--version"])
            #expect(version.status == 0 && version.output.contains(RosterVersion.release), "\(version.output)")
            #expect(
                version.output.contains("commit ") && !version.output.contains("development"),
                "a release names its commit: \(version.output)")
            let libraries = try await Self.run("/usr/bin/ldd", [bin.appendingPathComponent(tool).path])
            #expect(
                !libraries.output.contains("libswiftCore") && !libraries.output.contains("libFoundation"),
                "the Swift runtime is linked in: \(libraries.output)")
            let manual = try String(
                contentsOf: root.appendingPathComponent("share/man/man1/\(tool).1"), encoding: .utf8)
            #expect(manual.contains(".Dt \(tool.uppercased()) 1"), "an mdoc page for \(tool)")
            for completion in [
                "share/bash-completion/completions/\(tool)", "share/zsh/site-functions/_\(tool)",
                "share/fish/vendor_completions.d/\(tool).fish",
            ] {
                let text = try String(contentsOf: root.appendingPathComponent(completion), encoding: .utf8)
                #expect(text.contains(tool), "\(completion)")
            }
        }
        #expect(
            FileManager.default.fileExists(
                atPath: root.appendingPathComponent("lib/systemd/system/roster-server.service").path))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path))

        // The demo from the unpacked server; a watching client from the unpacked client sees a change.
        let data = scratch.appendingPathComponent("data").path
        let server = try await ServerProcess.start(dataDirectory: data, arguments: ["--demo"], binaries: bin)
        try await withCleanup(server, cleanUp: { await $0.terminate() }) { server in
            let cli = CLI(port: server.port, token: server.adminToken, binaries: bin)
            defer { TestScratch.remove(cli.home) }
            let watch = try ChildProcess(
                bin.appendingPathComponent("roster-client").path, ["watch", "--json"], environment: cli.environment)
            try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                #expect(await eventually { watch.stdout.contains(#""event":"synced""#) }, "\(watch.output)")
                let set = try await cli.run([
                    "admin", "motd", "set", "Served from the tarball", "--reason", "smoke test",
                ])
                #expect(set.status == 0, "\(set.stderr)")
                #expect(
                    await eventually { watch.stdout.contains("Served from the tarball") },
                    "the push reached the watch: \(watch.stdout)")
                #expect(await watch.stop(signal: SIGINT) == 0, "Ctrl-C ends the watch cleanly")
            }
        }
    }
}
