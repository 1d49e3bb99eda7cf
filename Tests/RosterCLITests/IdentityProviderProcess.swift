import Foundation
import RosterTestSupport

/// A real OpenID Provider for the sign-in tests: Canaille, started by Fixtures/identity_provider.py
/// (PyPI canaille and pytest-iam; .ci/run installs them and sets ROSTER_REQUIRE_BROWSER=1, so CI
/// runs these tests rather than skipping them). It knows the client `roster` and the people
/// lynn (in oncall-admins) and jean; its data is in memory and goes with the process.
final class IdentityProviderProcess: Sendable {
    let child: ChildProcess
    let issuer: String

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/identity_provider.py").path

    /// Whether the provider can run here (its Python packages are installed), or must (CI).
    static let shouldRun: Bool = Browser.shouldRun

    private init(child: ChildProcess, issuer: String) { (self.child, self.issuer) = (child, issuer) }

    /// Starts the provider with the client's `redirectURI` and the secret in `secretFile`; with
    /// `scimClientURI`, Canaille's SCIM client provisions the client there (`provision(_:)`).
    static func start(redirectURI: String, secretFile: String, scratch: URL, scimClientURI: String? = nil)
        async throws -> IdentityProviderProcess
    {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        let child = try ChildProcess(
            "/usr/bin/env",
            ["python3", "-u", script, "--redirect-uri", redirectURI, "--client-secret-file", secretFile]
                + (scimClientURI.map { ["--scim-client-uri", $0] } ?? []),
            environment: environment, stdin: true)
        // Canaille imports Flask, authlib and its backends: beside the whole suite's start on two
        // cores that took over a minute once.
        let issuer = await child.waitForOutput(timeout: .seconds(180)) { output in
            output.split(separator: "\n").first { $0.hasPrefix("ISSUER ") }.map { String($0.dropFirst(7)) }
        }
        guard let issuer else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("the identity provider did not start: \(child.output)")
        }
        return IdentityProviderProcess(child: child, issuer: issuer)
    }

    /// A new signing key made the active one (the old one still published); its kid.
    func rotateKey() async -> String? {
        let before = child.stdout.components(separatedBy: "ROTATED ").count
        child.write("rotate\n")
        return await child.waitForOutput(timeout: .seconds(30)) { output in
            let parts = output.components(separatedBy: "ROTATED ")
            return parts.count > before ? parts.last?.split(separator: "\n").first.map(String.init) : nil
        }
    }

    /// Runs a provisioning command (`provision`, `rename`, `leave`: the script says what each
    /// saves); true once the provider answered it, its SCIM requests made.
    func provision(_ command: String) async -> Bool {
        let answer = ["provision": "PROVISIONED", "rename": "RENAMED", "leave": "LEFT"][command] ?? command
        let before = child.stdout.components(separatedBy: answer).count
        child.write(command + "\n")
        return await child.waitForOutput(timeout: .seconds(60)) { output in
            output.components(separatedBy: answer).count > before ? true : nil
        } ?? false
    }

    func stop() async {
        child.closeInput()
        if await child.waitForExit(timeout: .seconds(10)) == nil { await child.stop(signal: SIGKILL) }
    }
}
