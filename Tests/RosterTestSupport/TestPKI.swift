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
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("roster-pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        authority = try CertificateIssuer.makeAuthority(commonName: "Roster Test CA")
        caFile = directory.appendingPathComponent("ca.pem").path
        try authority.certificate.pem.write(toFile: caFile, atomically: true, encoding: .utf8)
        (serverChainFile, serverKeyFile) = try Self.write(
            CertificateIssuer.makeLeaf(names: names, signedBy: authority), chain: authority, name: "server", in: directory)
    }

    /// A leaf signed by this CA, written as NAME.pem (leaf + CA) and NAME.key.
    public func leaf(_ name: String, names: [String] = ["localhost", "127.0.0.1"], usage: CertificateIssuer.Usage = .server,
                     notBefore: Date = Date(timeIntervalSinceNow: -3600),
                     notAfter: Date = Date(timeIntervalSinceNow: 86_400)) throws -> (chain: String, key: String) {
        try Self.write(CertificateIssuer.makeLeaf(names: names, usage: usage, signedBy: authority, notBefore: notBefore,
                                                  notAfter: notAfter),
                       chain: authority, name: name, in: directory)
    }

    private static func write(_ leaf: CertificateIssuer.Issued, chain authority: CertificateIssuer.Issued, name: String,
                              in directory: URL) throws -> (String, String) {
        let chain = directory.appendingPathComponent("\(name).pem").path
        let key = directory.appendingPathComponent("\(name).key").path
        try (leaf.certificate.pem + authority.certificate.pem).write(toFile: chain, atomically: true, encoding: .utf8)
        try leaf.key.pem.write(toFile: key, atomically: true, encoding: .utf8)
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus); exited.continuation.finish() }
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        async let text = CLI.readToEnd(output.fileHandleForReading)
        var status: Int32 = -1
        for await code in exited.stream { status = code }
        return Result(output: String(decoding: await text, as: UTF8.self), status: status)
    }
}

/// `openssl s_server` on a free port, for our client to connect to. `-rev` answers each line
/// reversed, which exercises application data both ways.
public final class OpenSSLServer: @unchecked Sendable {
    public let process = Process()
    public let port: Int
    private let output = Pipe()

    public init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: OpenSSLTool.path)
        process.arguments = ["s_server", "-accept", "0"] + arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = Pipe()
        try process.run()
        var log = ""
        var found: Int?
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, found == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
            // "ACCEPT [::]:PORT"
            if let line = log.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }) {
                found = line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }
            }
        }
        guard let found else {
            process.terminate()
            throw TestFailure("s_server did not start: \(log)")
        }
        port = found
        output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
    }

    public func stop() {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
    }

    deinit { stop() }
}

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
