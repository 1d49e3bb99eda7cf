import Foundation

/// The container image that `scripts/image` writes (an OCI layout), run with rootful podman:
/// loaded once into podman's store, each server a container on the host's network (so it
/// listens on this machine's loopback), with the image's own defaults for the rest: its user,
/// a read-only root, every capability dropped, the data directory a volume.
public final class ContainerImage: Sendable {
    public static let podman = "/usr/bin/podman"

    /// ROSTER_IMAGE: the OCI layout directory. CI builds it beside the suite.
    public static var layout: String? { ProcessInfo.processInfo.environment["ROSTER_IMAGE"] }

    /// The image's id in podman's store.
    public let id: String

    /// What every `podman run` here is given. runc: crun refuses this machine's hybrid cgroups.
    /// Limits no higher than this machine's own hard limits (podman's defaults are higher, and a
    /// runtime may lower a limit but not raise it here).
    static let runtime = ["--runtime", "runc"]
    static let limits = ["--ulimit", "nofile=16384:16384", "--ulimit", "nproc=4096:4096"]

    private init(id: String) { self.id = id }

    /// Loads the layout's `latest` into podman's store.
    public static func load(layout: String) async throws -> ContainerImage {
        let pulled = try await podmanRun(["pull", "--quiet", "oci:\(layout):latest"], timeout: .seconds(120))
        let id = pulled.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last.map(String.init)
        guard let id, !id.isEmpty else { throw TestFailure("podman pull printed no image id: \(pulled)") }
        return ContainerImage(id: id)
    }

    /// Loads a `docker-archive` tarball (`podman load`); its id is the image's configuration's
    /// digest, the same as the layout's when both hold one image.
    public static func load(archive: String) async throws -> ContainerImage {
        let output = try await podmanRun(["load", "--quiet", "--input", archive], timeout: .seconds(120))
        // "Loaded image: localhost/roster:latest"
        guard let name = output.split(separator: "\n").last?.components(separatedBy: "Loaded image: ").last else {
            throw TestFailure("podman load printed no image name: \(output)")
        }
        let id = try await podmanRun(["image", "inspect", "--format", "{{.Id}}", name], timeout: .seconds(30))
        return ContainerImage(id: id.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Removes the image from podman's store (its containers were run with --rm).
    public func remove() async {
        _ = try? await Self.podmanRun(["rmi", "--force", id], timeout: .seconds(60))
    }

    /// The image's configuration as podman reads it (`podman image inspect`).
    public func inspect() async throws -> [String: Any] {
        let text = try await Self.podmanRun(["image", "inspect", id], timeout: .seconds(30))
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        return parsed?.first ?? [:]
    }

    /// Starts `roster-server serve` in a container named `name` with `dataDirectory` as its
    /// /data volume (made the image user's: 65532), and waits for it to listen. The server's
    /// arguments are the tests' usual ones (`ServerProcess.testServeArguments`) and `arguments`;
    /// the image's environment stands (TLS on, with a CA it makes in /data/tls) but for
    /// `environment`. `volumes` are more `HOST:CONTAINER[:ro]` mounts.
    public func startServer(
        name: String, dataDirectory: String, arguments: [String] = [], environment: [String: String] = [:],
        volumes: [String] = []
    ) async throws -> ContainedServer {
        guard chown(dataDirectory, 65532, 65532) == 0 else {
            throw TestFailure("chown \(dataDirectory): \(String(cString: strerror(errno)))")
        }
        var run =
            Self.runtime + [
                "run", "--rm", "--name", name, "--network", "host", "--read-only", "--cap-drop", "all",
                "--security-opt", "no-new-privileges", "--volume", "\(dataDirectory):/data",
            ] + Self.limits
        for volume in volumes { run += ["--volume", volume] }
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { run += ["--env", "\(key)=\(value)"] }
        run += [id, "serve"] + ServerProcess.testServeArguments + arguments
        let child = try ChildProcess(Self.podman, run)
        do {
            let server = try await ServerProcess.started(child, dataDirectory: dataDirectory, timeout: .seconds(90))
            return ContainedServer(name: name, server: server)
        } catch {
            await ContainedServer.remove(name)
            throw error
        }
    }

    /// Runs podman to completion and returns its stdout; a failure throws with its stderr.
    @discardableResult
    static func podmanRun(_ arguments: [String], timeout: Duration) async throws -> String {
        let child = try ChildProcess(podman, arguments)
        guard let status = await child.waitForExit(timeout: timeout) else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("podman \(arguments.joined(separator: " ")) did not finish within \(timeout)")
        }
        guard status == 0 else {
            throw TestFailure("podman \(arguments.joined(separator: " ")) failed (\(status)): \(child.stderr)")
        }
        return child.stdout
    }
}

/// A server in a container: `server` is the attached `podman run` (its output is the server's
/// log; SIGTERM to it reaches the server, as `podman stop` would).
public struct ContainedServer: Sendable {
    public let name: String
    public let server: ServerProcess

    /// SIGTERM, as a runtime stops a container: GoingAway to the clients, then the exit.
    public func stop() async {
        await server.terminate()
        await Self.remove(name)
    }

    /// Removes the container whatever its state (a test that failed half-way).
    static func remove(_ name: String) async {
        _ = try? await ContainerImage.podmanRun(["rm", "--force", "--time", "0", name], timeout: .seconds(60))
    }
}
