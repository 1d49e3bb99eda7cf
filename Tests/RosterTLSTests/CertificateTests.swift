import Foundation
import NIOCore
import NIOPosix
import RosterTestSupport
import RosterTLS
import Testing

/// Certificates we issue, checked by OpenSSL's own tool.
@Suite(.timeLimit(.minutes(10))) struct CertificateTests {
    @Test func fingerprintMatchesOpenSSL() async throws {
        try #require(OpenSSLTool.isAvailable, "openssl is needed (apt-get install openssl)")
        let pki = try TestPKI()
        let result = try await OpenSSLTool.run(["x509", "-in", pki.caFile, "-noout", "-fingerprint", "-sha256"])
        // "sha256 Fingerprint=AB:CD:..."
        let theirs = result.output.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect("SHA256:" + (theirs ?? "") == pki.authority.certificate.fingerprint)
    }

    @Test func openSSLVerifiesTheChainWeIssue() async throws {
        try #require(OpenSSLTool.isAvailable, "openssl is needed (apt-get install openssl)")
        let pki = try TestPKI()
        let leaf = try Certificate.load(pemFile: pki.serverChainFile)[0]
        let leafFile = pki.directory.appendingPathComponent("leaf-only.pem").path
        try leaf.pem.write(toFile: leafFile, atomically: false, encoding: .utf8)
        let result = try await OpenSSLTool.run([
            "verify", "-CAfile", pki.caFile, "-verify_hostname", "localhost", leafFile,
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("OK"))
    }
}
