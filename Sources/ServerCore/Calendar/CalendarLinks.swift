import RosterDomain
import RosterProtocol
import RosterStore

/// The calendar links (calendar tokens) a credential made: `calendar list` and `calendar
/// revoke`. A link's secret is shown once, when it is made, so a list names each by its token
/// id and its feed; whoever made a link may revoke it, and an admin any link of the tenant.
/// Links are made with a token only: an anonymous one could be neither listed nor revoked by
/// whoever made it.
extension ServerCore {
    func calendarLinks(_ request: Roster_V1_GetCalendarRequest, tenant: TenantRuntime, actor: Caller) async
        -> Result<RosterMessage, WireError>
    {
        guard let maker = actor.tokenID else { return .failure(CalendarLinkRules.anonymous) }
        let now = clock.now()
        if request.listLinks {
            let state = tenant.view.state
            var answer = Roster_V1_CalendarResponse()
            answer.links = CalendarLinkRules.listed(tokens.all(), tenantID: tenant.id, actor: actor, now: now)
                .map { token in
                    Roster_V1_CalendarLink.with {
                        $0.tokenID = token.id
                        $0.feed = Self.feedName(token.scope ?? "", state: state)
                        $0.label = token.label
                        $0.createdMs = token.createdAt
                        $0.expiresMs = token.expiresAt ?? 0
                        $0.madeBy = token.mintedBy ?? ""
                    }
                }
            return .success(.calendar(answer))
        }
        let id =
            request.revokeLink.hasPrefix(AccessToken.prefix)
            ? (AccessToken.parse(request.revokeLink)?.id ?? request.revokeLink)
            : request.revokeLink
        guard let token = tokens.token(id: id), CalendarLinkRules.manages(token, tenantID: tenant.id, actor: actor),
            token.revokedAt == nil
        else {
            return .failure(
                WireError(
                    .notFound,
                    "no calendar link \(request.revokeLink) made by this token (`roster-client calendar list` shows them)"
                ))
        }
        do {
            guard try await admin.store.revokeToken(id: id, at: now) else {
                return .failure(WireError(.notFound, "no calendar link \(request.revokeLink)"))
            }
            var revoked = token
            revoked.revokedAt = now
            tokens.insert(revoked)
            var entry = AuditLog.token(AuditLog.Kind.tokenRevoked, revoked, at: now)
            entry.tokenID = maker
            entry.actor = actor.name
            entry.address = actor.address
            try await admin.store.appendAudit(tenantID: tenant.id, entry)
        } catch {
            return .failure(
                WireError(.unavailable, "the link could not be revoked in the store: \(error)", retryable: true))
        }
        return .success(.calendar(Roster_V1_CalendarResponse()))
    }

    /// "schedule Platform primary", "person Ada Lovelace": a feed's scope as people read it.
    static func feedName(_ scope: String, state: RosterState) -> String {
        if scope.hasPrefix("schedule:") {
            let id = String(scope.dropFirst("schedule:".count))
            return "schedule " + (state.schedules[id]?.name ?? id)
        }
        if scope.hasPrefix("person:") {
            let id = String(scope.dropFirst("person:".count))
            return "person " + (state.employees[id]?.fullName ?? id)
        }
        return scope
    }
}
