/// Why a server would not start.
public enum ServerStartError: Error, Equatable, CustomStringConvertible {
    /// A non-loopback listener without TLS.
    case insecureListener(host: String)
    /// Another process listens on the address.
    case addressInUse(String)
    /// Settings out of their range, each said.
    case invalidConfiguration([String])
    /// Secrets in the store that the secrets key does not open (a restore without its key).
    case secretsKeyMismatch(keyFile: String, unreadable: Int, madeNow: Bool)

    public var description: String {
        switch self {
        case .insecureListener(let host):
            return """
                refusing to listen on \(host) without TLS: only loopback listeners may serve plaintext. \
                Add --tls (a certificate is generated in the data dir) or --tls-cert/--tls-key.
                """
        case .addressInUse(let address):
            return "\(address) is already in use (another roster-server, or another program, listens there)"
        case .invalidConfiguration(let problems):
            return "the configuration is not valid: " + problems.joined(separator: "; ")
        case .secretsKeyMismatch(let keyFile, let unreadable, let madeNow):
            return """
                \(unreadable) secret\(unreadable == 1 ? "" : "s") in the store (webhook signing secrets, bot tokens, slash-command \
                secrets) cannot be opened with \(keyFile)\(madeNow ? ", which did not exist and was not kept" : ""): \
                the store was sealed with another key, as after a restore into a new data directory. Copy the secrets.key \
                of the directory the store came from to \(keyFile) (or name it with --secrets-key-file); backups do not hold it
                """
        }
    }
}
