/// Why a server would not start.
public enum ServerStartError: Error, Equatable, CustomStringConvertible {
    /// A non-loopback listener without TLS.
    case insecureListener(host: String)
    /// Another process listens on the address.
    case addressInUse(String)
    /// Settings out of their range, each said.
    case invalidConfiguration([String])

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
        }
    }
}

