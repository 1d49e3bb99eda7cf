import Foundation
import RosterServer
import RosterTestSupport
import Testing

/// deploy/kubernetes rendered by `kubectl kustomize` (the base and the PostgreSQL overlay),
/// validated offline by `kubernetes-validate --strict` (PyPI; .ci/run installs it) against
/// Kubernetes 1.32, and read back for what docs/DEPLOY.md promises: probes, a strict security
/// context, a grace longer than the server's, selectors that find the pods, only real settings,
/// and for the overlay never fewer than N-1 ready nodes. Skipped where kubectl is not installed,
/// unless ROSTER_REQUIRE_KUBERNETES=1 (as .ci/run sets when it is).
enum KubernetesTools {
    static var kubectl: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/kubectl" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    static var enabled: Bool {
        kubectl != nil || ProcessInfo.processInfo.environment["ROSTER_REQUIRE_KUBERNETES"] == "1"
    }
}

@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: KubernetesTools.enabled, "kubectl is not installed (ROSTER_REQUIRE_KUBERNETES=1 fails instead)"))
struct KubernetesManifestTests {
    static var kubectl: String? { KubernetesTools.kubectl }
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    typealias Object = [String: Any]

    /// The objects `directory` renders to, after they passed validation.
    static func rendered(_ directory: String) async throws -> [Object] {
        let kubectl = try #require(kubectl, "kubectl is not on PATH")
        let scratch = TestScratch.directory("roster-kubernetes")
        defer { TestScratch.remove(scratch) }
        let file = scratch.appendingPathComponent("rendered.yaml")
        let render = try ChildProcess(kubectl, ["kustomize", root.appendingPathComponent(directory).path])
        guard await render.waitForExit(timeout: .seconds(60)) == 0 else {
            throw TestFailure("kubectl kustomize \(directory): \(render.stderr)")
        }
        try Data(render.stdout.utf8).write(to: file)
        let validate = try ChildProcess("/usr/bin/env", ["kubernetes-validate", "--strict", "-k", "1.32.0", file.path])
        let validated = await validate.waitForExit(timeout: .seconds(120))
        #expect(
            validated == 0,
            "kubernetes-validate (pip install kubernetes-validate): \(validate.stdout) \(validate.stderr)")
        let read = try ChildProcess(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))", file.path,
            ])
        guard await read.waitForExit(timeout: .seconds(60)) == 0,
            let objects = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [Object]
        else { throw TestFailure("python3 with PyYAML could not read the rendering: \(read.stderr)") }
        return objects
    }

    static func find(_ objects: [Object], kind: String, name: String? = nil) -> [Object] {
        objects.filter { object in
            object["kind"] as? String == kind
                && (name == nil || (object["metadata"] as? Object)?["name"] as? String == name)
        }
    }

    static func value(_ object: Any?, _ path: String) -> Any? {
        path.split(separator: ".").reduce(object) { current, key in
            if let index = Int(key), let list = current as? [Any] { return index < list.count ? list[index] : nil }
            return (current as? Object)?[String(key)]
        }
    }

    /// Whether every pair of `selector` is among `labels`.
    static func selects(_ selector: Any?, _ labels: Any?) -> Bool {
        guard let selector = selector as? [String: String], !selector.isEmpty, let labels = labels as? [String: String]
        else {
            return false
        }
        return selector.allSatisfy { labels[$0.key] == $0.value }
    }

    /// The checks both renderings share; returns the Deployment.
    static func checkServer(_ objects: [Object]) throws -> Object {
        let deployment = try #require(find(objects, kind: "Deployment", name: "roster").first)
        let pod = value(deployment, "spec.template")
        let labels = value(pod, "metadata.labels")
        #expect(selects(value(deployment, "spec.selector.matchLabels"), labels))
        for service in find(objects, kind: "Service") { #expect(selects(value(service, "spec.selector"), labels)) }
        #expect(find(objects, kind: "Service").count == 2)
        #expect(selects(value(find(objects, kind: "NetworkPolicy").first, "spec.podSelector.matchLabels"), labels))
        let container = try #require(value(pod, "spec.containers.0") as? Object)
        #expect(value(container, "livenessProbe.httpGet.path") as? String == "/livez")
        #expect(value(container, "readinessProbe.httpGet.path") as? String == "/readyz")
        #expect(value(pod, "spec.securityContext.runAsNonRoot") as? Bool == true)
        #expect(value(container, "securityContext.readOnlyRootFilesystem") as? Bool == true)
        #expect(value(container, "securityContext.allowPrivilegeEscalation") as? Bool == false)
        #expect(value(container, "securityContext.capabilities.drop") as? [String] == ["ALL"])
        // Every variable is a setting the server reads, and the pod outlives the shutdown grace.
        let env = (value(container, "env") as? [Object] ?? []).compactMap { $0["name"] as? String }
        let settings = Set(ServerSettings.all.map(\.environmentName))
        #expect(env.allSatisfy(settings.contains), "not settings: \(env.filter { !settings.contains($0) })")
        let grace = (value(container, "env") as? [Object] ?? []).first {
            $0["name"] as? String == "ROSTER_SHUTDOWN_GRACE_MS"
        }
        let graceMillis = Int(grace?["value"] as? String ?? "") ?? 2_000
        let termination = try #require(value(pod, "spec.terminationGracePeriodSeconds") as? Int)
        #expect(termination * 1_000 > graceMillis + 5_000, "the pod is killed before its clients are told and let go")
        return deployment
    }

    @Test func theBaseIsOneNodeOnSQLiteWithItsDataOnAVolume() async throws {
        let objects = try await Self.rendered("deploy/kubernetes/base")
        let deployment = try Self.checkServer(objects)
        #expect(Self.value(deployment, "spec.replicas") as? Int == 1)
        #expect(Self.value(deployment, "spec.strategy.type") as? String == "Recreate", "one writer on one volume")
        let claim = try #require(Self.find(objects, kind: "PersistentVolumeClaim").first)
        let volume = (Self.value(deployment, "spec.template.spec.volumes") as? [Object] ?? []).first {
            $0["name"] as? String == "data"
        }
        #expect(
            Self.value(volume, "persistentVolumeClaim.claimName") as? String == Self.value(claim, "metadata.name")
                as? String)
    }

    @Test func thePostgresOverlayKeepsAllButOneNodeReadyThroughUpdatesAndDrains() async throws {
        let objects = try await Self.rendered("deploy/kubernetes/overlays/postgres-ha")
        let deployment = try Self.checkServer(objects)
        let replicas = try #require(Self.value(deployment, "spec.replicas") as? Int)
        #expect(replicas == 3)
        #expect(Self.value(deployment, "spec.strategy.rollingUpdate.maxUnavailable") as? Int == 0)
        let budget = try #require(Self.find(objects, kind: "PodDisruptionBudget").first)
        #expect(Self.value(budget, "spec.minAvailable") as? Int == replicas - 1)
        #expect(
            Self.selects(
                Self.value(budget, "spec.selector.matchLabels"), Self.value(deployment, "spec.template.metadata.labels")
            ))
        #expect(Self.find(objects, kind: "PersistentVolumeClaim").isEmpty, "the store is PostgreSQL")
        let container = Self.value(deployment, "spec.template.spec.containers.0")
        let store = (Self.value(container, "env") as? [Object] ?? []).first { $0["name"] as? String == "ROSTER_STORE" }
        #expect(Self.value(store, "valueFrom.secretKeyRef.name") as? String == "roster-store", "the URL from a Secret")
        let volumes = Self.value(deployment, "spec.template.spec.volumes") as? [Object] ?? []
        #expect(volumes.first { $0["name"] as? String == "data" }?["emptyDir"] != nil)
        #expect(
            volumes.first { $0["name"] as? String == "secrets" }.map { Self.value($0, "secret.secretName") as? String }
                == "roster-secrets")
    }

    @Test func theBackupOverlayRunsTheBackupCommandBesideTheServer() async throws {
        let objects = try await Self.rendered("deploy/kubernetes/overlays/sqlite-backup")
        let deployment = try Self.checkServer(objects)
        let job = try #require(Self.find(objects, kind: "CronJob", name: "roster-backup").first)
        #expect(Self.value(job, "spec.concurrencyPolicy") as? String == "Forbid")
        let pod = Self.value(job, "spec.jobTemplate.spec.template")
        // The data volume is ReadWriteOnce: the job must land on the server's node.
        let term = Self.value(pod, "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution.0")
        #expect(Self.value(term, "topologyKey") as? String == "kubernetes.io/hostname")
        #expect(
            Self.selects(
                Self.value(term, "labelSelector.matchLabels"), Self.value(deployment, "spec.template.metadata.labels")))
        #expect(Self.value(pod, "spec.securityContext.runAsNonRoot") as? Bool == true)
        let container = try #require(Self.value(pod, "spec.containers.0") as? Object)
        #expect(Self.value(container, "securityContext.readOnlyRootFilesystem") as? Bool == true)
        #expect(Self.value(container, "securityContext.capabilities.drop") as? [String] == ["ALL"])
        let volumes = Self.value(pod, "spec.volumes") as? [Object] ?? []
        let claims = Dictionary(
            volumes.compactMap { volume in
                (volume["name"] as? String).map {
                    ($0, Self.value(volume, "persistentVolumeClaim.claimName") as? String)
                }
            }, uniquingKeysWith: { first, _ in first })
        #expect(claims["data"] == "roster-data", "the server's own volume")
        #expect(Self.find(objects, kind: "PersistentVolumeClaim", name: claims["backups"] ?? "").count == 1)

        // Its arguments, run by the built server on a real data directory, the mounts mapped.
        let arguments = try #require(Self.value(container, "args") as? [String])
        let mounts = (Self.value(container, "volumeMounts") as? [Object] ?? []).compactMap { mount in
            (mount["name"] as? String).flatMap { name in (mount["mountPath"] as? String).map { (name, $0) } }
        }
        try await withServerProcess { server in
            let backups = TestScratch.directory("roster-kubernetes-backups")
            defer { TestScratch.remove(backups) }
            let local = ["data": server.dataDirectory, "backups": backups.path]
            let mapped = arguments.map { argument in
                mounts.first { $0.1 == argument }.flatMap { local[$0.0] } ?? argument
            }
            let cli = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(cli.home) }
            let result = try await cli.server(mapped)
            #expect(result.status == 0, "roster-server \(mapped.joined(separator: " ")): \(result.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: backups.path)
            #expect(
                written.count == 1 && written.allSatisfy { $0.hasPrefix("roster-") && $0.hasSuffix("Z.sqlite") },
                "\(written)")
        }
    }
}
