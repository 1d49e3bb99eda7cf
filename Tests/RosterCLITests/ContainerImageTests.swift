import Foundation
import RosterProtocol
import RosterTestSupport
import Testing

/// The container image (scripts/image), run as a runtime runs it: rootful podman, the image's own
/// user and configuration, a read-only root, no capabilities, /data a volume, on this machine's
/// loopback (host network). Its server answers /readyz and pushes to a watching client; two
/// containers on one PostgreSQL database hand a watcher over when one is stopped.
///
/// Runs when ROSTER_IMAGE names the image's OCI layout. CI builds the image beside the suite
/// (after the release tarball it is made from), so the test waits for the layout to appear
/// (scripts/image renames it into place whole), up to 20 minutes, or until `LAYOUT.failed` says
/// the build failed.
@Suite(
    .serialized, .timeLimit(.minutes(30)),
    .enabled(if: ContainerImage.layout != nil, "ROSTER_IMAGE is not set"))
struct ContainerImageTests {
    static func image() async throws -> ContainerImage {
        let layout = try #require(ContainerImage.layout)
        let files = FileManager.default
        let appeared = await eventually(20 * 60) {
            files.fileExists(atPath: layout + "/index.json") || files.fileExists(atPath: layout + ".failed")
        }
        try #require(
            appeared && !files.fileExists(atPath: layout + ".failed"), "the image was not built: \(layout)")
        try #require(
            files.isExecutableFile(atPath: ContainerImage.podman), "podman is needed (apt-get install podman runc)")
        return try await ContainerImage.load(layout: layout)
    }

    /// Runs `body` with the image loaded into podman's store, removed afterwards.
    static func withImage(_ body: (ContainerImage) async throws -> Void) async throws {
        let image = try await image()
        try await withCleanup(image, cleanUp: { await $0.remove() }, body)
    }

    static func containerName() -> String { "roster-test-\(UUID().uuidString.prefix(8).lowercased())" }

    @Test func theDockerArchiveBesideTheLayoutIsTheSameImageTaggedRoster() async throws {
        try await Self.withImage { image in
            let archive = try #require(ContainerImage.layout) + ".docker.tar"
            let loaded = try await ContainerImage.load(archive: archive)
            try await withCleanup(loaded, cleanUp: { await $0.remove() }) { loaded in
                #expect(loaded.id == image.id, "one configuration, so one image id")
                let tags = try await loaded.inspect()["RepoTags"] as? [String] ?? []
                // docker.io/library/roster:latest: what `docker load` and the manifests call roster:latest.
                #expect(tags.contains { $0.hasSuffix("/roster:latest") }, "\(tags)")
            }
        }
    }

    @Test func theImageRunsAsItsUserOnAReadOnlyRootAndServesAWatcher() async throws {
        try await Self.withImage { image in
            let configuration = try await image.inspect()
            let config = configuration["Config"] as? [String: Any] ?? [:]
            #expect(config["User"] as? String == "65532:65532", "\(config)")
            #expect(config["Entrypoint"] as? [String] == ["/usr/local/bin/roster-server"], "\(config)")
            let labels = config["Labels"] as? [String: String] ?? [:]
            #expect(labels["org.opencontainers.image.version"] == RosterVersion.release, "\(labels)")
            #expect(labels["org.opencontainers.image.revision"]?.isEmpty == false, "\(labels)")

            let data = TestScratch.directory("roster-image-data")
            defer { TestScratch.remove(data) }
            let contained = try await image.startServer(
                name: Self.containerName(), dataDirectory: data.path, arguments: ["--demo"])
            try await withCleanup(contained, cleanUp: { await $0.stop() }) { contained in
                let server = contained.server
                // The image's environment turns TLS on: the CA it made is in the volume.
                let ca = data.appendingPathComponent("tls/ca.pem").path
                let port = try #require(server.httpPort, "the image serves HTTP: \(server.child.output)")
                let ready = try await HTTPGet.request("https://127.0.0.1:\(port)/readyz", insecureCA: ca)
                #expect(ready.status == 200, "\(ready.body)")
                // Everything the server wrote is in the volume and belongs to the image's user.
                let database = try FileManager.default.attributesOfItem(
                    atPath: data.appendingPathComponent("roster.sqlite").path)
                #expect((database[.ownerAccountID] as? NSNumber)?.intValue == 65532, "\(database)")

                var cli = CLI(port: server.port, token: server.adminToken)
                cli.caFile = ca
                defer { TestScratch.remove(cli.home) }
                let watch = try ChildProcess(CLI.binary.path, ["watch", "--json"], environment: cli.environment)
                try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                    #expect(await eventually(30) { watch.stdout.contains(#""event":"synced""#) }, "\(watch.output)")
                    let set = try await cli.run(["admin", "motd", "set", "Served from the image", "--reason", "test"])
                    #expect(set.status == 0, "\(set.stderr)")
                    #expect(
                        await eventually(30) { watch.stdout.contains("Served from the image") },
                        "the push reached the watch: \(watch.stdout)")
                }
            }
        }
    }

    @Test func twoContainersOnOnePostgreSQLHandAWatcherOver() async throws {
        try #require(PostgresCluster.shouldRun, "PostgreSQL is needed (apt-get install postgresql)")
        try await Self.withImage { image in
            let cluster = try await PostgresCluster.shared()
            let address = try await cluster.createDatabase()
            let store = "postgres://\(address.user)@\(address.host):\(address.port)/\(address.database)"
            // One secrets key for both, mounted read-only as a Kubernetes Secret would be.
            let keys = TestScratch.directory("roster-image-keys")
            let first = TestScratch.directory("roster-image-node")
            let second = TestScratch.directory("roster-image-node")
            defer { for directory in [keys, first, second] { TestScratch.remove(directory) } }
            let keyFile = keys.appendingPathComponent("secrets.key").path
            let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
            #expect(chown(keyFile, 65532, 65532) == 0 && chown(keys.path, 65532, 65532) == 0)
            // Plain TCP on loopback here: the first test covers the image's TLS.
            let environment = [
                "ROSTER_TLS": "0", "ROSTER_STORE": store, "ROSTER_SECRETS_KEY_FILE": "/keys/secrets.key",
            ]
            let volumes = ["\(keys.path):/keys:ro"]

            let nodeA = try await image.startServer(
                name: Self.containerName(), dataDirectory: first.path, environment: environment, volumes: volumes)
            try await withCleanup(nodeA, cleanUp: { await $0.stop() }) { nodeA in
                let nodeB = try await image.startServer(
                    name: Self.containerName(), dataDirectory: second.path, environment: environment,
                    volumes: volumes)
                try await withCleanup(nodeB, cleanUp: { await $0.stop() }) { nodeB in
                    // The first node made the admin token; the store holds it for both.
                    let token = nodeA.server.adminToken
                    let cli = CLI(port: nodeA.server.port, token: token)
                    defer { TestScratch.remove(cli.home) }
                    var both = cli.environment
                    both["ROSTER_SERVER"] = "127.0.0.1:\(nodeA.server.port),127.0.0.1:\(nodeB.server.port)"
                    let watch = try ChildProcess(CLI.binary.path, ["watch", "--json"], environment: both)
                    try await withCleanup(watch, cleanUp: { await $0.stop(signal: SIGKILL) }) { watch in
                        #expect(
                            await eventually(30) { watch.stdout.contains(#""event":"synced""#) }, "\(watch.output)")
                        // The first node stops as a runtime stops it; the watcher moves to the second.
                        await nodeA.stop()
                        #expect(
                            await eventually(30) { watch.stdout.contains(#""event":"goingAway""#) }, "\(watch.stdout)")
                        let viaB = CLI(port: nodeB.server.port, token: token)
                        defer { TestScratch.remove(viaB.home) }
                        let set = try await viaB.run([
                            "admin", "motd", "set", "Handed over between containers", "--reason", "test",
                        ])
                        #expect(set.status == 0, "\(set.stderr)")
                        #expect(
                            await eventually(30) { watch.stdout.contains("Handed over between containers") },
                            "the second node's push reached the watch: \(watch.stdout)")
                    }
                }
            }
        }
    }
}
