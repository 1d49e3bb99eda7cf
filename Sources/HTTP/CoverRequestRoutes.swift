import Foundation
import NIOCore
import RosterDomain
import RosterProtocol
import RosterServerCore

/// `GET /v1/requests` (the cover requests, in the state they are in now) and
/// `POST /v1/requests/ID/take|decline|cancel|back-out` (one step, as the bearer token's person,
/// or an admin's `for`): docs/HTTP.md, "Cover requests". A step is the protocol's own
/// EditSchedule, queued, checked and committed as if it came over the protocol.
extension HTTPAPI {
    struct CoverRequestsJSON: Encodable {
        var revision: UInt64
        var at: String
        var requests: [CoverRequest.Summary]
    }

    /// The steps a POST may name, by their path segment.
    package static let coverSteps: [String: Roster_V1_CoverRequestEdit.Action] = [
        "take": .take, "decline": .decline, "cancel": .cancel, "back-out": .backOut,
    ]

    func coverRequests(_ request: Request, tenant: TenantRuntime) -> Reply {
        let view = tenant.view, now = tenant.clock.now()
        var wanted: CoverRequest.State?
        if let text = request.query["state"] {
            guard let state = CoverRequest.State(rawValue: text) else {
                return Self.problem(400, "state is open, taken, cancelled or expired (got \"\(text.prefix(40))\")")
            }
            wanted = state
        }
        let schedules: [ScheduleDefinition]
        do { schedules = try view.state.schedules(named: request.query["schedule"]) } catch {
            return Self.problem(WireError(error))
        }
        let found = schedules.flatMap { schedule in
            schedule.requests.filter { wanted == nil || $0.state(at: now) == wanted }.map { (schedule, $0) }
        }.sorted { ($0.1.start, $0.1.id) < ($1.1.start, $1.1.id) }
        return Self.json(
            CoverRequestsJSON(
                revision: view.revision, at: TimeText.iso8601(now),
                requests: found.map { CoverRequest.Summary($1, schedule: $0, state: view.state, at: now) }))
    }

    /// The server, the request's loop, and the bearer token's credential and tenant; or the
    /// refusal (503 while starting, 401 without a usable token).
    func bearer(_ request: Request) -> Result<(ServerCore, any EventLoop, Credential, TenantRuntime), Reply.Refusal> {
        guard let core = side.context, let loop = request.loop else {
            return .failure(Reply.Refusal(Self.problem(503, "starting: the tenants are not loaded yet")))
        }
        guard let header = request.authorization, header.lowercased().hasPrefix("bearer ") else {
            return .failure(
                Reply.Refusal(
                    Self.problem(
                        401, "send a token: Authorization: Bearer rst_...", headers: [("WWW-Authenticate", "Bearer")])))
        }
        guard let credential = core.tokens.authenticate(String(header.dropFirst(7)), now: core.clock.now()),
            let tenant = core.tenant(credential.tenantID)
        else {
            side.metrics?.counters.authenticationFailed()
            core.auditAuthenticationFailure(
                token: String(header.dropFirst(7)), address: request.peer, door: "HTTP Bearer token",
                at: core.clock.now())
            return .failure(
                Reply.Refusal(
                    Self.problem(
                        401, "authentication failed",
                        headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\"")])))
        }
        return .success((core, loop, credential, tenant))
    }

    /// `POST /v1/requests/ID/STEP[?for=PERSON]`.
    func coverRequestStep(_ request: Request, id: String, step: String) async -> Reply {
        guard let action = Self.coverSteps[step] else {
            return Self.problem(404, "no such step: \(step.prefix(40)) (take, decline, cancel or back-out)")
        }
        let (core, loop, credential, tenant): (ServerCore, any EventLoop, Credential, TenantRuntime)
        switch bearer(request) {
        case .success(let found): (core, loop, credential, tenant) = found
        case .failure(let refusal): return refusal.reply
        }
        let edit = Roster_V1_EditScheduleRequest.with {
            $0.coverRequest = .with {
                $0.action = action
                $0.requestID = id
                $0.person = request.query["for"] ?? ""
            }
        }
        // The protocol's role check first: a token that names nobody cannot act for itself.
        guard credential.role == .admin || credential.employeeID != nil else {
            return Self.problem(
                403,
                "taking duty and cover requests need a token bound to a person (roster-server token create --employee NAME)"
            )
        }
        let answer: Result<RosterMessage, WireError>
        do {
            answer = try await core.perform(
                .editSchedule(edit), on: tenant, credential: credential, address: request.peer, loop: loop
            ).get()
        } catch {
            return Self.problem(503, "the server is stopping")
        }
        switch answer {
        case .success(.mutationResult(let result)):
            let view = tenant.view, now = tenant.clock.now()
            guard let schedule = view.state.schedules[result.ids.first ?? ""], let found = schedule.request(id: id)
            else {
                return Self.problem(500, "the request was changed but is not found")
            }
            struct Done: Encodable { var revision: UInt64; var request: CoverRequest.Summary }
            return Self.json(
                Done(
                    revision: result.revision,
                    request: CoverRequest.Summary(found, schedule: schedule, state: view.state, at: now)))
        case .success(let other): return Self.problem(500, "unexpected answer \(other.type)")
        case .failure(let error): return Self.problem(error)
        }
    }
}
