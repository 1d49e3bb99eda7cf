import Foundation
import RosterDomain
import RosterProtocol

/// `GET /v1/calendar/TOKEN.ics`: the iCalendar feed a calendar token opens, one schedule's or one
/// person's resolved shifts from `calendarDaysBack` ago to `calendarDaysAhead` ahead. What the
/// feed published before is kept in the store, so that a changed shift gets a higher SEQUENCE and a
/// removed one stays CANCELLED for 30 days (`CalendarFeedState`). Fetches run one at a time on
/// the mutation queue, which also orders them after the changes they may reflect.
extension ServerCore {
    /// A feed's alarm: a duration before each shift, at most a week.
    package static let calendarAlarmRule = "is a duration before each shift up to a week, such as 15m, 1h or 1d"
    package static func calendarAlarm(_ text: String) -> Duration? {
        DurationText.parse(text, within: .seconds(7 * 86_400))
    }

    /// The feed of `scope` ("schedule:ID", "person:ID") as published now, after updating what it
    /// published before. Run it on the mutation queue: feeds change state in the store.
    package func calendarFeed(scope: String, tenant: TenantRuntime, alarm: Duration?, now: UnixMillis) async -> Result<
        String, WireError
    > {
        // Whole UTC days, so the window moves once a day, not with every fetch.
        let day: UnixMillis = 86_400_000
        let from = (now - UnixMillis(configuration.calendarDaysBack) * day) / day * day
        let to = (now + UnixMillis(configuration.calendarDaysAhead) * day) / day * day
        let content: (name: String, events: [CalendarEvent])
        let state = tenant.view.state
        // Resolving is CPU work: on the work pool, not on the tenant's queue's task.
        let resolved = await work.run(tenant.id) { () -> Result<(name: String, events: [CalendarEvent]), WireError> in
            do throws(RosterError) {
                return .success(try Self.events(scope: scope, state: state, from: from, to: to, now: now))
            } catch {
                return .failure(WireError(error))
            }
        }
        switch resolved {
        case .success(let made)?: content = made
        case .failure(let error)?: return .failure(error)
        case nil: return .failure(AdminOperations.busy)
        }
        let store = admin.store
        do {
            let previous = try await store.calendarEvents(tenantID: tenant.id, feed: scope)
            let update = CalendarFeedState.update(previous: previous, current: content.events, now: now)
            if !update.store.isEmpty || !update.forget.isEmpty {
                try await store.saveCalendarEvents(
                    tenantID: tenant.id, feed: scope, store: update.store, forget: update.forget)
            }
            return .success(
                ICalendar.feed(update.publish, options: .init(name: content.name, alarmBefore: alarm), now: now))
        } catch {
            return .failure(
                WireError(.unavailable, "the feed could not be read from the store: \(error)", retryable: true))
        }
    }

    /// GetCalendar: the feed of a schedule or person, and with `create_token` a calendar token
    /// for it (any role of the tenant may subscribe a calendar; the token is audited).
    func calendar(_ request: Roster_V1_GetCalendarRequest, tenant: TenantRuntime, actor: Caller) async -> Result<
        RosterMessage, WireError
    > {
        if request.listLinks || !request.revokeLink.isEmpty {
            return await calendarLinks(request, tenant: tenant, actor: actor)
        }
        if request.createToken && actor.tokenID == nil { return .failure(CalendarLinkRules.anonymous) }
        let state = tenant.view.state, now = clock.now()
        let scope: String
        switch (request.schedule.isEmpty, request.person.isEmpty) {
        case (false, true):
            guard let schedule = state.schedule(idOrName: request.schedule) else {
                return .failure(
                    WireError(
                        .notFound("schedule \"\(request.schedule)\"", suggestions: state.sortedSchedules.map(\.name))))
            }
            scope = "schedule:" + schedule.id
        case (true, false):
            guard let person = state.employee(idOrName: request.person) else {
                return .failure(
                    WireError(
                        .notFound("employee \"\(request.person)\"", suggestions: state.suggestions(for: request.person))
                    ))
            }
            scope = "person:" + person.id
        default:
            return .failure(WireError(.invalidArgument, "a calendar is one schedule's or one person's: name one"))
        }
        var alarm: Duration?
        if !request.alarm.isEmpty {
            guard let parsed = Self.calendarAlarm(request.alarm) else {
                return .failure(
                    WireError(.invalidArgument, "alarm \(Self.calendarAlarmRule) (got \"\(request.alarm.prefix(40))\")")
                )
            }
            alarm = parsed
        }
        var answer = Roster_V1_CalendarResponse()
        if request.createToken, let problem = TextLimits.lineProblem(request.label, limit: TextLimits.maxName) {
            return .failure(WireError(.invalidArgument, "label \(problem)"))
        }
        if request.createToken {
            guard let port = httpPort else {
                return .failure(
                    WireError(.unavailable, "this server has no HTTP listener to serve calendars (--http-listen)"))
            }
            let live = tokens.liveCalendarTokens(tenant: tenant.id, mintedBy: actor.tokenID, now: now)
            if let refusal = CalendarLinkRules.mintRefusal(live: live, tenantID: tenant.id) { return .failure(refusal) }
            let issued = AccessToken.issue(
                tenantID: tenant.id, role: .calendar, label: request.label, now: now,
                expiresAt: now + CalendarLinkRules.lifetime.milliseconds, scope: scope, mintedBy: actor.tokenID)
            do {
                try await admin.store.insertToken(issued.stored)
                var entry = AuditLog.token(AuditLog.Kind.tokenCreated, issued.stored, at: now)
                entry.tokenID = actor.tokenID ?? ""
                entry.actor = actor.name
                entry.address = actor.address
                try await admin.store.appendAudit(tenantID: tenant.id, entry)
            } catch {
                return .failure(WireError(.unavailable, "the token could not be stored: \(error)", retryable: true))
            }
            tokens.insert(issued.stored)
            answer.token = issued.text
            answer.httpPort = UInt32(port)
            answer.https = configuration.tls != nil
        }
        switch await calendarFeed(scope: scope, tenant: tenant, alarm: alarm, now: now) {
        case .success(let ics): answer.ics = ics
        case .failure(let error): return .failure(error)
        }
        return .success(.calendar(answer))
    }
}

extension ServerCore {
    /// The feed's name and events: on a schedule's feed each event names the person, on a
    /// person's feed the schedule; both name the role of a one-off shift that has one.
    static func events(scope: String, state: RosterState, from: UnixMillis, to: UnixMillis, now: UnixMillis)
        throws(RosterError)
        -> (name: String, events: [CalendarEvent])
    {
        let parts = scope.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw .notFound("calendar \(scope)", suggestions: []) }
        let isSchedule = parts[0] == "schedule"
        let resolved = try state.finalSchedule(
            schedule: isSchedule ? parts[1] : nil, employee: isSchedule ? nil : parts[1],
            from: from, to: to
        ).shifts
        let name: String
        if isSchedule {
            name = state.schedules[parts[1]]?.name ?? parts[1]
        } else {
            name = (state.employees[parts[1]].map { "\($0.fullName)" } ?? parts[1]) + " on call"
        }
        // A shift cut by the window's edge would change as the window moves: only whole ones.
        let events = resolved.filter { $0.shift.start > from && $0.shift.end < to }.map { entry -> CalendarEvent in
            let shift = entry.shift
            let scheduleName = state.schedules[entry.scheduleID]?.name ?? entry.scheduleID
            var role = ""
            if case .shift(let id) = shift.source, let found = state.shifts[id], !found.role.isEmpty {
                role = " (\(found.role))"
            }
            let person = state.employees[shift.employeeID]?.fullName ?? shift.employeeID
            let summary = isSchedule ? "\(person) on call: \(scheduleName)\(role)" : "On call: \(scheduleName)\(role)"
            // The times as the schedule's zone reads them ("Mon 30 Nov 09:00 CET"), as on the
            // web page and in the CLI: a calendar shows the event in the reader's own zone.
            let zone = ZoneLabel(zone: state.schedules[entry.scheduleID]?.zone ?? "UTC")
            let times = "\(zone.label(shift.start)) – \(zone.label(shift.end))"
            return CalendarEvent(
                uid: shift.id, start: shift.start, end: shift.end, summary: summary,
                description: "\(person), \(scheduleName), \(times); from \(shift.source)", lastModified: now)
        }
        return (name, events)
    }
}
