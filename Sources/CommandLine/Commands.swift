import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS
import RosterViewModels

/// What `export` writes.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// snapshot-json: the directory, the plan and the motd in one file.
    case json
    /// employees-csv.
    case employeesCSV = "employees-csv"
    /// shifts-csv.
    case shiftsCSV = "shifts-csv"
    /// The tenant's definition for `plan` and `apply` (docs/AS-CODE.md).
    case yaml
}

/// The work behind each roster-client command. Reads go to the server and fall back to the cache
/// when it is unreachable (saying how old the data is); errors become a sentence and an exit code.
public struct CommandRunner: Sendable {
    public let settings: ClientSettings
    public let json: Bool
    public let display: Display
    public let client: RosterClient
    /// The people of `settings.contactsFile`, marked in listings and shown with a person.
    public let contacts: VCardDirectory?

    public init(settings: ClientSettings, json: Bool, contacts: VCardDirectory? = nil) {
        self.settings = settings
        self.json = json
        self.contacts = contacts
        display = Display(utc: settings.useUTC)
        client = RosterClient(configuration: settings.clientConfiguration())
    }

    // MARK: Output

    /// Writes a line to standard output. A reader that went away (`| head`) ends the output
    /// quietly instead of crashing the process. Control characters from the server never reach
    /// the terminal (JSON output has them escaped already).
    public static func out(_ text: String) {
        do {
            var line = ControlCharacters.stripped(text, keepLineBreaks: true)
            line.append("\n")
            try FileHandle.standardOutput.write(contentsOf: Data(line.utf8))
        } catch {
            exit(0)
        }
    }

    public static func err(_ text: String) {
        try? FileHandle.standardError.write(
            contentsOf: Data((ControlCharacters.stripped(text, keepLineBreaks: true) + "\n").utf8))
    }

    /// Prints what went wrong and returns the exit code for it.
    public func report(_ error: any Error) -> ClientExitCode {
        switch error {
        case let error as RosterClientError:
            switch error {
            case .connectionFailed(let why):
                Self.err(why.prefix(1).uppercased() + why.dropFirst())
                return .unreachable
            case .connectionClosed, .timedOut:
                Self.err("Cannot reach the server at \(settings.server): \(error)")
                return .unreachable
            case .protocolViolation(let why):
                Self.err("The server sent malformed data: \(why)")
                return .malformedData
            case .outcomeUnknown(let why):
                Self.err(
                    """
                    The change was sent to \(settings.server), but \(why): it may or may not have been made.
                    Check before trying again, e.g. `roster-client admin audit --since '10m ago'` or the listing it changed.
                    """)
                return .outcomeUnknown
            case .requestTooLarge(let bytes, let limit):
                Self.err(
                    "Too large: the request is \(bytes) bytes and the server takes at most \(limit) in one request (its --max-frame-bytes). Nothing was sent."
                )
                return .invalidInput
            case .tls(let tls):
                switch tls {
                case .uncleanShutdown, .closed, .recordFailed:
                    Self.err("Cannot reach the server at \(settings.server): \(tls)")
                    return .unreachable
                case .pinnedFingerprintChanged(_, let pinned, let presented):
                    Self.err(
                        """
                        WARNING: the certificate authority of \(settings.server) has CHANGED.
                          pinned:    \(pinned)
                          presented: \(presented)
                        Someone may be intercepting the connection, or the server's certificates were regenerated.
                        If you trust the change, run `roster-client trust \(settings.server) --replace`.
                        """)
                    return .insecure
                default:
                    Self.err("TLS with \(settings.server) failed: \(tls)")
                    return .insecure
                }
            case .server(let body):
                switch body.code {
                case .unauthenticated:
                    // Which tenant and which token were tried is known here, so say it.
                    let given =
                        settings.token.isEmpty
                        ? "without a token" : "with the token given (--token, --token-file or ROSTER_TOKEN)"
                    let tenant =
                        settings.tenant.isEmpty ? "the server's default tenant" : "tenant \"\(settings.tenant)\""
                    // A Hello is refused with one sentence for every cause; a connection already in
                    // says why it ends (e.g. "the token was revoked").
                    let why =
                        body.message == "authentication failed" || body.message.isEmpty
                        ? "the tenant is unknown, or the token is not one of its tokens, expired or was revoked"
                        : body.message
                    Self.err("Authentication failed for \(tenant) \(given): \(why). Check --tenant and the token.")
                    return .permissionDenied
                case .permissionDenied:
                    // Another token helps only where the token is what was refused; a step that is
                    // someone else's to take is refused whatever token this person gives.
                    let hint = body.message.contains("token") ? " (give another with --token or --token-file)" : ""
                    Self.err("Permission denied: \(body.message)\(hint).")
                    return .permissionDenied
                case .tlsRequired:
                    Self.err(
                        "The server at \(settings.server) requires TLS: run `roster-client trust \(settings.server)`, or pass --ca-file or --tls."
                    )
                    return .insecure
                case .notFound:
                    // The server's sentence already carries its suggestions.
                    Self.err(body.message.prefix(1).uppercased() + body.message.dropFirst())
                    return .notFound
                case .failedPrecondition:
                    // Sound, but not now: a cover request already taken, a stretch already begun.
                    Self.err("Refused: " + body.message + ".")
                    return .invalidInput
                case .invalidArgument, .alreadyExists:
                    Self.err(
                        body.code == .alreadyExists
                            ? "Refused: this would change what exists:" : "The server refused the input:")
                    for violation in body.violations {
                        let place = [violation.location, violation.field].filter { !$0.isEmpty }.joined(separator: ", ")
                        Self.err("  \(place.isEmpty ? "" : place + ": ")\(violation.description_p)")
                    }
                    if body.violations.isEmpty { Self.err("  \(body.message)") }
                    return .invalidInput
                default:
                    Self.err("The server answered: \(body.message) (\(body.code))")
                    return .failure
                }
            }
        case let problem as CacheProblem:
            Self.err("Warning: \(problem)")
            return .failure
        case let invalid as TimeArgument.Invalid:
            Self.err("error: \(invalid)")
            return .failure
        default:
            Self.err("error: \(error)")
            return .failure
        }
    }

    /// Runs `online`; if the server is unreachable, answers from the cache with a note of its age.
    func withCacheFallback(
        offline: Bool = false, online: () async throws -> ClientExitCode,
        cached: (CachedRoster) -> ClientExitCode
    ) async -> ClientExitCode {
        var unreachable = "Cannot reach the server at \(settings.server)"
        if !offline {
            do {
                return try await online()
            } catch let error as RosterClientError {
                switch error {
                case .connectionFailed(let why): unreachable = why.prefix(1).uppercased() + why.dropFirst()
                case .connectionClosed, .timedOut: unreachable += ": \(error)"
                default: return report(error)
                }
            } catch {
                return report(error)
            }
        }
        // The client's copy of the cache of the tenant this credential authenticated as (never
        // the --tenant flag's), read from the file now if it was not yet.
        let roster = await client.roster
        if let problem = await client.cacheLoadProblem { Self.err("Warning: \(problem)") }
        guard let roster else {
            Self.err(
                offline
                    ? "Nothing is cached for \(settings.server) yet: run a command while the server is reachable."
                    : "\(unreachable), and nothing is cached.")
            return .unreachable
        }
        let age = DurationText.age(seconds: roster.age())
        if offline {
            Self.err("Offline: cached data from \(age) ago (revision \(roster.revision)).")
        } else {
            Self.err("\(unreachable); showing cached data from \(age) ago (revision \(roster.revision)).")
        }
        let code = cached(roster)
        return code == .success && !offline ? .answeredFromCache : code
    }

    /// Refreshes the cache quietly after an online read, so the next offline answer is recent.
    func refreshCache() async {
        _ = try? await client.refreshCacheIfBehind()
    }
}
