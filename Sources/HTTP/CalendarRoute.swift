import Foundation
import RosterDomain
import RosterProtocol
import RosterServerCore

extension HTTPAPI {
    func calendar(tokenText: String, request: Request) async -> Reply {
        guard let context = side.context else { return Self.problem(503, "starting: the tenants are not loaded yet") }
        let now = context.clock.now()
        guard let token = context.tokens.calendarToken(tokenText, now: now), let scope = token.scope,
            let tenant = context.tenant(token.tenantID)
        else {
            side.metrics?.counters.authenticationFailed()
            return Self.problem(404, "no such calendar (the link is wrong, or its token was revoked or expired)")
        }
        var alarm: Duration?
        if let text = request.query["alarm"] {
            guard let parsed = ServerCore.calendarAlarm(text) else {
                return Self.problem(400, "alarm \(ServerCore.calendarAlarmRule) (got \"\(text.prefix(40))\")")
            }
            alarm = parsed
        }
        let before = alarm
        let feed: Result<String, WireError> = await withCheckedContinuation { continuation in
            let queued = context.mutations.submit(tenant.id) {
                continuation.resume(
                    returning: await context.calendarFeed(scope: scope, tenant: tenant, alarm: before, now: now))
            }
            if !queued {
                continuation.resume(
                    returning: .failure(WireError(.unavailable, "the server is shutting down", retryable: true)))
            }
        }
        switch feed {
        case .success(let text):
            return Reply(
                status: 200, contentType: "text/calendar; charset=utf-8", body: Array(text.utf8),
                headers: [("Content-Disposition", "inline; filename=\"roster.ics\"")])
        case .failure(let error):
            return Self.problem(error)
        }
    }
}
