import RosterDomain
import RosterProtocol

/// A question for an escalation (docs/ESCALATION.md): a service or a policy, by id or name.
public struct EscalationQuery: Sendable, Hashable {
    public var service: String?
    public var policy: String?
    /// The page's start; nil: now.
    public var at: UnixMillis?
    /// The whole timeline, each step at its own instant, through the repeats.
    public var simulate: Bool

    public init(service: String? = nil, policy: String? = nil, at: UnixMillis? = nil, simulate: Bool = false) {
        (self.service, self.policy, self.at, self.simulate) = (service, policy, at, simulate)
    }

    public func wire() -> Roster_V1_GetEscalationRequest {
        .with {
            $0.service = service ?? ""
            $0.policy = policy ?? ""
            if let at { $0.atMs = at }
            $0.simulate = simulate
        }
    }
}

extension RosterClient {
    /// Whom a page reaches at each step, as the server answers it.
    public func escalation(_ query: EscalationQuery) async throws -> Roster_V1_EscalationResponse {
        guard case .escalation(let answer) = try await request(.getEscalation(query.wire())) else {
            throw RosterClientError.protocolViolation("expected Escalation")
        }
        return answer
    }
}

extension CachedRoster {
    /// The same answer from the cached plan, offline: the builder the server uses, over the
    /// shared on-duty engine.
    public func escalation(_ query: EscalationQuery, now: UnixMillis) throws(RosterError)
        -> Roster_V1_EscalationResponse
    {
        let state = self.state
        return try EscalationAnswer.answer(
            query.wire(), state: state, epoch: epoch, revision: revision, now: now,
            onDuty: { state.onDuty(of: $0, at: $1) }
        ).get()
    }
}

/// What `RosterClient.escalationUpdates` yields: a push, or word that the connection is gone
/// (it is made again after the stream's `retry`, and the next push is an INITIAL one).
public enum EscalationUpdate: Sendable {
    case changed(Roster_V1_EscalationChanged)
    case disconnected(reason: String)
}

extension RosterClient {
    /// ESCALATION pushes for services and policies (ids or names): the answer for now at once
    /// (INITIAL), then each change. A lost connection is said (`.disconnected`) and made again
    /// after `retry`, and the subscription starts afresh with INITIAL: every push carries the
    /// whole answer, so nothing needs replaying. A refusal (an unknown name) ends the stream
    /// with its error.
    public func escalationUpdates(services: [String], policies: [String], retry: Duration = .seconds(2))
        -> AsyncThrowingStream<EscalationUpdate, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                while !Task.isCancelled {
                    do {
                        let connection = try await connect()
                        connection.subscribe(
                            .with {
                                $0.topics = [.escalation]
                                $0.services = services
                                $0.escalationPolicies = policies
                            })
                        for await inbound in connection.inbound {
                            switch inbound.message {
                            case .escalationChanged(let event): continuation.yield(.changed(event))
                            case .error(let error):
                                continuation.finish(throwing: RosterClientError.server(error))
                                await connection.close()
                                return
                            default: break
                            }
                        }
                        await connection.close()
                        continuation.yield(.disconnected(reason: "the connection closed"))
                    } catch let error as RosterClientError where error.isPermanent {
                        continuation.finish(throwing: error)
                        return
                    } catch {
                        continuation.yield(.disconnected(reason: "\(error)"))
                    }
                    try? await Task.sleep(for: retry)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
