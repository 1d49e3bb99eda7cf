import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS
import RosterViewModels

// MARK: Trust

extension CommandRunner {
    /// `roster-client trust HOST:PORT`: shows the CA the server presents and pins it in
    /// known_hosts once a person (or `--fingerprint`) has confirmed it.
    public func trust(
        expectedFingerprint: String?, assumeYes: Bool, replace: Bool,
        confirm: (String) -> Bool
    ) async -> ClientExitCode {
        guard let (host, port) = settings.hostAndPort else { return .failure }
        let chain: [Certificate]
        do {
            chain = try await ServerTrust.presentedChain(host: host, port: port)
        } catch {
            return report(error)
        }
        guard let authority = chain.last else {
            Self.err("\(settings.server) presented no certificate.")
            return .insecure
        }
        Self.out("\(settings.server) presents a certificate issued by:")
        Self.out("  \(authority.subject)")
        Self.out("  \(authority.fingerprint)")
        if let pinned = settings.knownHosts.entry(for: settings.server), pinned.fingerprint == authority.fingerprint {
            Self.out("Already trusted.")
            return .success
        }
        if let expectedFingerprint {
            guard
                expectedFingerprint.uppercased() == authority.fingerprint.uppercased()
                    || "SHA256:" + expectedFingerprint.uppercased() == authority.fingerprint.uppercased()
            else {
                Self.err("The fingerprint does not match the expected \(expectedFingerprint): not trusted.")
                return .insecure
            }
        } else if !assumeYes {
            guard confirm("Compare it with the fingerprint in the server's log. Trust it? [y/N] ") else {
                Self.err("Not trusted.")
                return .failure
            }
        }
        do {
            try settings.knownHosts.pin(authority, for: settings.server, replace: replace)
        } catch {
            Self.err("\(error)")
            return .insecure
        }
        Self.out(
            "Pinned in \(settings.knownHosts.file.path); connections to \(settings.server) now use TLS and trust only this CA."
        )
        return .success
    }
}

/// While a change is on its way: SIGINT or SIGTERM first says that its outcome is unknown, then
/// ends the process as the signal would have (128 + its number). Without it, an import stopped
/// mid-way exited 143 without a word, and the user could not tell whether to send it again.
// @unchecked: the sources are made in init and cancelled once, by `end`.
final class ChangeInFlight: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []

    init(server: String) {
        let queue = DispatchQueue(label: "roster-client.change-in-flight")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                CommandRunner.err(
                    """
                    Interrupted while a change was on its way to \(server): it may or may not have been made.
                    Check before trying again, e.g. `roster-client admin audit --since '10m ago'`.
                    """)
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The change was answered (or failed): signals act as usual again.
    func end() {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
    }
}
