import Foundation
import Logging
import RosterServerCore
import RosterStore
import RosterTLS

/// The certificate the server presents. Either files the operator gave, or, with none given,
/// a CA and server certificate the server generates in `DATA_DIR/tls` at first start (mode
/// 0600). The CA is kept; the server certificate is re-issued from it whenever the names it must
/// cover change, so a client's pin (on the CA) stays valid.
enum ServerTLS {
    static func makeContext(
        _ settings: ServerConfiguration.TLSSettings, dataDirectory: DataDirectory, host: String,
        logger: Logger
    ) throws -> TLSContext {
        if let chain = settings.certificateChainFile, let key = settings.privateKeyFile {
            let context = try TLSContext.server(
                .init(
                    certificateChainFile: chain, privateKeyFile: key,
                    clientCAFile: settings.clientCAFile))
            let certificates = try Certificate.load(pemFile: chain)
            logger.notice("TLS with \(chain): \(certificates[0].subject), \(certificates.last?.fingerprint ?? "")")
            return context
        }
        let directory = dataDirectory.tls
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let authority = try loadOrCreateAuthority(in: directory, logger: logger)
        let names = certificateNames(host: host, extra: settings.names)
        let chainPath = directory + "/server.pem", keyPath = directory + "/server.key"
        let current = try? Certificate.load(pemFile: chainPath)
        let upToDate =
            current.map { chain in
                chain.count == 2 && chain[1].fingerprint == authority.certificate.fingerprint
                    && names.allSatisfy(chain[0].matches(name:))
                    && (chain[0].notAfter.map { $0.timeIntervalSinceNow > 30 * 86_400 } ?? false)
            } ?? false
        if !upToDate || !FileManager.default.fileExists(atPath: keyPath) {
            let leaf = try CertificateIssuer.makeLeaf(names: names, signedBy: authority)
            try PrivateFile.write(leaf.key.pem, to: keyPath)
            try PrivateFile.write(leaf.certificate.pem + authority.certificate.pem, to: chainPath)
            logger.info("issued a TLS server certificate for \(names.joined(separator: ", "))")
        }
        logger.notice(
            """
            TLS certificate authority \(authority.certificate.fingerprint) (\(directory)/ca.pem); \
            clients trust it with `roster-client trust HOST:PORT` or `--ca-file`
            """)
        return try TLSContext.server(
            .init(
                certificateChainFile: chainPath, privateKeyFile: keyPath,
                clientCAFile: settings.clientCAFile))
    }

    private static func loadOrCreateAuthority(in directory: String, logger: Logger) throws -> CertificateIssuer.Issued {
        let certificatePath = directory + "/ca.pem", keyPath = directory + "/ca.key"
        if let certificateText = try? String(contentsOfFile: certificatePath, encoding: .utf8),
            let keyText = try? String(contentsOfFile: keyPath, encoding: .utf8)
        {
            return .init(certificate: try Certificate(pem: certificateText), key: try PrivateKey(pem: keyText))
        }
        let authority = try CertificateIssuer.makeAuthority(commonName: "Roster CA \(ProcessInfo.processInfo.hostName)")
        try PrivateFile.write(authority.key.pem, to: keyPath)
        try PrivateFile.write(authority.certificate.pem, to: certificatePath)
        logger.notice("generated a TLS certificate authority in \(directory)")
        return authority
    }

    /// Loopback names, this host's name, the listening host unless it is a wildcard, and any
    /// names the operator added with `--tls-name`.
    static func certificateNames(host: String, extra: [String]) -> [String] {
        var names = ["localhost", "127.0.0.1", "::1", ProcessInfo.processInfo.hostName]
        if !["0.0.0.0", "::", ""].contains(host) { names.append(host) }
        names += extra
        var seen = Set<String>()
        return names.filter { seen.insert($0.lowercased()).inserted }
    }
}
