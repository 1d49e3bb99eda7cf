import Foundation
import RosterDomain
import RosterProtocol

/// `GET /v1/calendar/TOKEN.ics`: the iCalendar feed a calendar token opens, one schedule's or one
/// person's resolved shifts from `calendarDaysBack` ago to `calendarDaysAhead` ahead. What the
/// feed published before is kept in the store, so that a changed shift gets a higher SEQUENCE and a
/// removed one stays CANCELLED for 30 days (`CalendarFeedState`). Fetches run one at a time on
/// the mutation queue, which also orders them after the changes they may reflect.
extension HTTPAPI {
    func calendar(tokenText: String, request: Request) async -> Reply {
        guard let context = side.context else { return Self.problem(503, "starting: the tenants are not loaded yet") }
        let now = context.clock.now()
        guard let token = context.tokens.calendarToken(tokenText, now: now), let scope = token.scope,
              let tenant = context.tenant(token.tenantID) else {
            side.metrics?.authenticationFailed()
            return Self.problem(404, "no such calendar (the link is wrong, or its token was revoked or expired)")
        }
        var alarm: Duration?
        if let text = request.query["alarm"] {
            guard let parsed = DurationText.parse(text) else {
                return Self.problem(400, "alarm is a duration before each shift, e.g. 15m or 1h (got \"\(text)\")")
            }
            alarm = parsed
        }
        let limits = context.configuration
        let from = now - UnixMillis(limits.calendarDaysBack) * 86_400_000
        let to = now + UnixMillis(limits.calendarDaysAhead) * 86_400_000
        let content: (name: String, events: [CalendarEvent])
        do throws(RosterError) {
            content = try Self.events(scope: scope, state: tenant.view.state, from: from, to: to, now: now)
        } catch {
            return Self.problem(WireError(error))
        }
        let store = context.admin.store
        let published: Result<[CalendarEvent], any Error> = await withCheckedContinuation { continuation in
            let queued = context.mutations.submit {
                do {
                    let previous = try await store.calendarEvents(tenantID: tenant.id, feed: scope)
                    let update = CalendarFeedState.update(previous: previous, current: content.events, now: now)
                    if !update.store.isEmpty || !update.forget.isEmpty {
                        try await store.saveCalendarEvents(tenantID: tenant.id, feed: scope, store: update.store, forget: update.forget)
                    }
                    continuation.resume(returning: .success(update.publish))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            if !queued { continuation.resume(returning: .failure(CancellationError())) }
        }
        guard case .success(let events) = published else { return Self.problem(503, "the feed could not be read from the store") }
        let text = ICalendar.feed(events, options: .init(name: content.name, alarmBefore: alarm), now: now)
        return Reply(status: 200, contentType: "text/calendar; charset=utf-8", body: Array(text.utf8),
                     headers: [("Content-Disposition", "inline; filename=\"roster.ics\"")])
    }

    /// The feed's name and events: on a schedule's feed each event names the person, on a
    /// person's feed the schedule; both name the role of a one-off shift that has one.
    static func events(scope: String, state: RosterState, from: UnixMillis, to: UnixMillis, now: UnixMillis) throws(RosterError)
        -> (name: String, events: [CalendarEvent])
    {
        let parts = scope.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw .notFound("calendar \(scope)", suggestions: []) }
        let isSchedule = parts[0] == "schedule"
        let resolved = try state.finalSchedule(schedule: isSchedule ? parts[1] : nil, employee: isSchedule ? nil : parts[1],
                                               from: from, to: to).shifts
        let name: String
        if isSchedule {
            name = state.schedules[parts[1]]?.name ?? parts[1]
        } else {
            name = (state.employees[parts[1]].map { "\($0.fullName)" } ?? parts[1]) + " on call"
        }
        let events = resolved.map { entry -> CalendarEvent in
            let shift = entry.shift
            let scheduleName = state.schedules[entry.scheduleID]?.name ?? entry.scheduleID
            var role = ""
            if case .shift(let id) = shift.source, let found = state.shifts[id], !found.role.isEmpty { role = " (\(found.role))" }
            let person = state.employees[shift.employeeID]?.fullName ?? shift.employeeID
            let summary = isSchedule ? "\(person) on call: \(scheduleName)\(role)" : "On call: \(scheduleName)\(role)"
            return CalendarEvent(uid: shift.id, start: shift.start, end: shift.end, summary: summary,
                                 description: "\(person), \(scheduleName); from \(shift.source)", lastModified: now)
        }
        return (name, events)
    }
}
