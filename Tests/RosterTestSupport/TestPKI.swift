import Foundation
import RosterTLS

/// Certificates for TLS tests, written as PEM files into a fresh directory: a CA, a server
/// certificate for localhost/127.0.0.1 signed by it, and whatever variants a test asks for.
public struct TestPKI: Sendable {
    public let directory: URL
    public let authority: CertificateIssuer.Issued
    public let caFile: String
    public let serverChainFile: String
    public let serverKeyFile: String

    public init(names: [String] = ["localhost", "127.0.0.1"]) throws {
        directory = TestScratch.directory("roster-pki")
        authority = try CertificateIssuer.makeAuthority(commonName: "Roster Test CA")
        caFile = directory.appendingPathComponent("ca.pem").path
        try authority.certificate.pem.write(toFile: caFile, atomically: false, encoding: .utf8)
        (serverChainFile, serverKeyFile) = try Self.write(
            CertificateIssuer.makeLeaf(names: names, signedBy: authority), chain: authority, name: "server",
            in: directory)
    }

    /// A leaf signed by this CA, written as NAME.pem (leaf + CA) and NAME.key.
    public func leaf(
        _ name: String, names: [String] = ["localhost", "127.0.0.1"], usage: CertificateIssuer.Usage = .server,
        notBefore: Date = Date(timeIntervalSinceNow: -3600),
        notAfter: Date = Date(timeIntervalSinceNow: 86_400)
    ) throws -> (chain: String, key: String) {
        try Self.write(
            CertificateIssuer.makeLeaf(
                names: names, usage: usage, signedBy: authority, notBefore: notBefore,
                notAfter: notAfter),
            chain: authority, name: name, in: directory)
    }

    private static func write(
        _ leaf: CertificateIssuer.Issued, chain authority: CertificateIssuer.Issued, name: String,
        in directory: URL
    ) throws -> (String, String) {
        let chain = directory.appendingPathComponent("\(name).pem").path
        let key = directory.appendingPathComponent("\(name).key").path
        try (leaf.certificate.pem + authority.certificate.pem).write(toFile: chain, atomically: false, encoding: .utf8)
        try leaf.key.pem.write(toFile: key, atomically: false, encoding: .utf8)
        return (chain, key)
    }
}

/// Runs Debian's `openssl` tool (s_client, s_server) as a real TLS peer.
public enum OpenSSLTool {
    public static let path = "/usr/bin/openssl"

    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    public struct Result: Sendable {
        public var output: String
        public var status: Int32
    }

    /// `openssl ARGS` to completion with `input` on stdin; stdout and stderr together.
    public static func run(_ arguments: [String], input: String = "") async throws -> Result {
        let child = try ChildProcess(path, arguments, stdin: true)
        child.write(input)
        child.closeInput()
        guard let status = await child.waitForExit(timeout: .seconds(60)) else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("openssl \(arguments.joined(separator: " ")) did not exit")
        }
        return Result(output: child.output, status: status)
    }
}

/// `openssl s_server` on a free port, for our client to connect to. `-rev` answers each line
/// reversed, which exercises application data both ways. s_server ignores SIGTERM while it
/// waits for input, so `stop` closes its input and kills it; prefer `withOpenSSLServer`.
public final class OpenSSLServer: Sendable {
    public let child: ChildProcess
    public let port: Int

    public static func start(arguments: [String]) async throws -> OpenSSLServer {
        let child = try ChildProcess(OpenSSLTool.path, ["s_server", "-accept", "0"] + arguments, stdin: true)
        // "ACCEPT [::]:PORT"
        let port = await child.waitForOutput(timeout: .seconds(10)) { log in
            log.split(separator: "\n").first { $0.hasPrefix("ACCEPT") }
                .flatMap { $0.split(separator: ":").last }.flatMap { Int($0.prefix { $0.isNumber }) }
        }
        guard let port else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("s_server did not start: \(child.output)")
        }
        return OpenSSLServer(child: child, port: port)
    }

    private init(child: ChildProcess, port: Int) {
        self.child = child
        self.port = port
    }

    public func stop() async {
        child.closeInput()
        await child.stop(signal: SIGKILL)
    }
}

/// Runs `body` with an `openssl s_server`, stopped afterwards whether `body` returned or threw.
public func withOpenSSLServer<T>(arguments: [String], _ body: (OpenSSLServer) async throws -> T) async throws -> T {
    try await withCleanup(try await OpenSSLServer.start(arguments: arguments), cleanUp: { await $0.stop() }, body)
}

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
