import RosterDomain
import RosterProtocol
import RosterStore

/// Personal tokens (docs/SSO.md): a person makes their own expiring reader tokens, limited to
/// reading or to what they may do themselves, optionally on some schedules (`TokenLimits`, kept as
/// the token's scope); they list and revoke theirs, an admin anyone's. Made only with a token
/// bound to the person that is itself unlimited (a login's, a sign-in's, an admin-made one), so a
/// personal token never makes another. Bounded: `maxPerPerson` live at once.
extension ServerCore {
    static let maxPersonalTokens = 20
    static let personalTokenLifetimes: ClosedRange<Int64> = 3_600...31_536_000
    static let personalTokenDefaultLifetime: Int64 = 90 * 86_400

    func personalTokens(_ request: Roster_V1_PersonalTokensRequest, tenant: TenantRuntime, actor: Caller) async
        -> Result<RosterMessage, WireError>
    {
        let now = clock.now()
        switch request.action {
        case .create(let spec):
            return await createPersonalToken(spec, tenant: tenant, actor: actor, now: now)
        case .list:
            let listed = personalTokens(of: tenant.id, visibleTo: actor, now: now).sorted {
                ($0.createdAt, $0.id) < ($1.createdAt, $1.id)
            }
            return .success(.personalTokensResult(.with { $0.tokens = listed.map(Self.personalToken) }))
        case .revoke(let id):
            guard let token = personalTokens(of: tenant.id, visibleTo: actor, now: now).first(where: { $0.id == id })
            else {
                return .failure(
                    WireError(
                        .notFound, "no personal token \(id.prefix(40)) of yours (`roster-client token list` shows them)"
                    ))
            }
            guard await revoke(token, why: "revoked by \(actor.name)", address: actor.address) else {
                return .failure(WireError(.unavailable, "the token could not be revoked in the store", retryable: true))
            }
            return .success(.personalTokensResult(.init()))
        case nil:
            return .failure(WireError(.invalidArgument, "say create, list or revoke"))
        }
    }

    private func createPersonalToken(
        _ spec: Roster_V1_PersonalTokenSpec, tenant: TenantRuntime, actor: Caller, now: UnixMillis
    ) async -> Result<RosterMessage, WireError> {
        guard let person = actor.employeeID, actor.limits == nil else {
            return .failure(
                WireError(
                    .permissionDenied,
                    actor.limits != nil
                        ? "a personal token cannot make another; use your login (roster-client login)"
                        : "personal tokens are made with a token bound to a person (roster-client login)"))
        }
        if let problem = TextLimits.lineProblem(spec.label, limit: 100) {
            return .failure(WireError(.invalidArgument, "label \(problem)"))
        }
        let lifetime = spec.expiresInS == 0 ? Self.personalTokenDefaultLifetime : spec.expiresInS
        guard Self.personalTokenLifetimes.contains(lifetime) else {
            return .failure(
                WireError(.invalidArgument, "a personal token lasts from an hour to a year (got \(spec.expiresInS) s)"))
        }
        guard spec.schedules.count <= TokenLimits.maxSchedules else {
            return .failure(WireError(.invalidArgument, "at most \(TokenLimits.maxSchedules) schedules"))
        }
        let state = tenant.view.state
        var scheduleIDs: [String] = []
        for name in spec.schedules {
            guard let schedule = state.schedule(idOrName: name) else {
                return .failure(
                    WireError(
                        .notFound("schedule \"\(name.prefix(80))\"", suggestions: state.sortedSchedules.map(\.name))))
            }
            if !scheduleIDs.contains(schedule.id) { scheduleIDs.append(schedule.id) }
        }
        guard personalTokens(of: tenant.id, visibleTo: actor, now: now).count < Self.maxPersonalTokens else {
            return .failure(
                WireError(
                    .resourceExhausted,
                    "you hold \(Self.maxPersonalTokens) personal tokens: revoke one first (`roster-client token list`)")
            )
        }
        let limits = TokenLimits(readOnly: spec.readOnly, schedules: scheduleIDs)
        let issued = AccessToken.issue(
            tenantID: tenant.id, role: .reader, label: spec.label, now: now, expiresAt: now + lifetime * 1000,
            employeeID: person, scope: limits.scope, mintedBy: actor.tokenID)
        do {
            try await admin.store.insertToken(issued.stored)
            var entry = AuditLog.token(AuditLog.Kind.tokenCreated, issued.stored, at: now)
            entry.actor = actor.name
            entry.tokenID = actor.tokenID ?? ""
            entry.address = actor.address
            entry.detail += ", a personal token (\(limits.readOnly ? "read only" : "own actions"))"
            try await admin.store.appendAudit(tenantID: tenant.id, entry)
        } catch {
            return .failure(WireError(.unavailable, "the token could not be stored", retryable: true))
        }
        tokens.insert(issued.stored)
        return .success(
            .personalTokensResult(
                .with {
                    $0.token = issued.text
                    $0.tokens = [Self.personalToken(issued.stored)]
                }))
    }

    /// The live personal tokens of the tenant that `actor` holds, or every one for an admin; none
    /// for a personal token, which manages no tokens.
    private func personalTokens(of tenantID: String, visibleTo actor: Caller, now: UnixMillis) -> [StoredToken] {
        guard actor.limits == nil else { return [] }
        return tokens.all().filter { token in
            token.tenantID == tenantID && token.isUsable(at: now) && TokenLimits(scope: token.scope) != nil
                && (actor.isAdmin || (actor.employeeID != nil && token.employeeID == actor.employeeID))
        }
    }

    private static func personalToken(_ token: StoredToken) -> Roster_V1_PersonalToken {
        let limits = TokenLimits(scope: token.scope)
        return .with {
            $0.tokenID = token.id
            $0.label = token.label
            $0.readOnly = limits?.readOnly ?? true
            $0.schedules = limits?.schedules ?? []
            $0.createdMs = token.createdAt
            $0.expiresMs = token.expiresAt ?? 0
            $0.employeeID = token.employeeID ?? ""
        }
    }
}
