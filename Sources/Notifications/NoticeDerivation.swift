import RosterDomain
import RosterServerCore
import RosterStore

/// Derives notification events from the plan: pure functions of states, instants and rules, so
/// that the same inputs always give the same events with the same ids.
struct NoticeDerivation {
    var tenantID: String
    var settings: ServerConfiguration.NotificationSettings

    static let day: UnixMillis = 86_400_000
    /// At most this many resolved shifts, or handoffs, are looked at per schedule and derivation.
    static let maxShifts = 2_000
    /// A change's announcement waits this long: changes within it make one post (the dispatcher
    /// skips an announcement a later one of the same schedule follows within it).
    static let announceCoalescing: UnixMillis = 3_000

    // MARK: Written with a change

    /// The events an admin change causes at `now`: on-duty sets it altered, each affected person's
    /// shifts gained, lost or moved within the horizon, and gaps it opened within `gapDays`.
    func afterChange(
        previous: RosterState, current: RosterState, schedules: Set<String>, revision: UInt64,
        now: UnixMillis, actor: String, wanted: Set<NotificationType>, announcements: [AnnounceRule] = []
    ) -> [NotificationEvent] {
        var events: [NotificationEvent] = []
        let ids = schedules.sorted()
        // Building an on-duty index is most of the cost: one per schedule and state, shared by
        // the on-duty comparison and the gaps.
        var indexes: [String: (before: ScheduleOnDutyIndex?, after: ScheduleOnDutyIndex?)] = [:]
        if wanted.contains(.onDutyChanged) || wanted.contains(.coverageGap) {
            for id in ids {
                indexes[id] = (previous.onDutyIndex(of: id, around: now), current.onDutyIndex(of: id, around: now))
            }
        }
        let onChange = announcements.filter { $0.trigger == .change }
        if wanted.contains(.onDutyChanged) || !onChange.isEmpty {
            for id in ids {
                if indexes[id] == nil {
                    indexes[id] = (previous.onDutyIndex(of: id, around: now), current.onDutyIndex(of: id, around: now))
                }
                guard
                    let change = OnDutyTracker.change(
                        scheduleID: id, before: indexes[id]?.before, after: indexes[id]?.after,
                        at: now)
                else { continue }
                let data = onDutyData(change, state: current, actor: actor)
                if wanted.contains(.onDutyChanged) {
                    events.append(
                        onDutyChanged(
                            change, data: data, state: current, revision: revision,
                            key: "rev:\(revision):on-duty:\(id)", planned: false))
                }
                // Keyed like a handoff's: the new plan's boundary at this very instant, planned again
                // below in the same write, is then this one and not a second post.
                let people = change.current.currentEmployeeIDs.sorted().joined(separator: ",")
                for rule in onChange where rule.scheduleID == id {
                    events.append(
                        announcement(
                            rule, data: data, trigger: "change", revision: revision,
                            key: "announce:\(rule.id):\(now):\(people)",
                            about: now, due: now + Self.announceCoalescing, planned: false))
                }
            }
        }
        if wanted.contains(.shiftsChanged) {
            events += shiftsChanged(
                previous: previous, current: current, schedules: ids, revision: revision, now: now, actor: actor)
        }
        events += requestSteps(
            previous: previous, current: current, schedules: ids, revision: revision, now: now, wanted: wanted)
        if wanted.contains(.coverageGap) {
            let end = now + UnixMillis(settings.gapDays) * Self.day
            for id in ids {
                let known = Set(gaps(of: indexes[id]?.before, from: now, to: end).map(\.key))
                for gap in gaps(of: indexes[id]?.after, from: now, to: end) where !known.contains(gap.key) {
                    events.append(
                        coverageGap(gap, scheduleID: id, state: current, revision: revision, due: now, planned: false))
                }
            }
        }
        if wanted.contains(.coverageConflict) {
            events += conflictsAfterChange(
                previous: previous, current: current, schedules: schedules, revision: revision, now: now)
        }
        return events
    }

    private func shiftsChanged(
        previous: RosterState, current: RosterState, schedules: [String], revision: UInt64,
        now: UnixMillis, actor: String
    ) -> [NotificationEvent] {
        let end = now + UnixMillis(settings.changeHorizonDays) * Self.day
        typealias Entry = NotificationPayload.ShiftChange
        // A rotation handing off every few minutes has tens of thousands of shifts in the
        // horizon: each schedule is compared over its first `maxShifts` of them at most, the
        // same stretch before and after (up to the earlier cut).
        var resolvedBefore: [String: [ResolvedShift]] = [:], resolvedAfter: [String: [ResolvedShift]] = [:]
        for id in schedules {
            var cut = end
            for (state, isBefore) in [(previous, true), (current, false)] {
                guard let definition = state.definition(of: id, from: now, to: end),
                    let resolved = try? ScheduleResolver.resolve(definition, from: now, to: end, limit: Self.maxShifts)
                else { continue }
                if resolved.truncated, let last = resolved.shifts.last { cut = min(cut, last.start) }
                if isBefore { resolvedBefore[id] = resolved.shifts } else { resolvedAfter[id] = resolved.shifts }
            }
            resolvedBefore[id] = resolvedBefore[id]?.filter { $0.start < cut }
            resolvedAfter[id] = resolvedAfter[id]?.filter { $0.start < cut }
        }
        func byPerson(_ state: RosterState, _ resolvedShifts: [String: [ResolvedShift]]) -> [String: [String: Entry]] {
            var found: [String: [String: Entry]] = [:]
            for id in schedules {
                guard let definition = state.schedules[id], let resolved = resolvedShifts[id] else { continue }
                // A shift is the same one before and after when it comes from the same source (a
                // one-off shift's id, a rotation's turn, an override) for the same person: then a
                // change of times is a move. Stretches cut from one source are told apart by order.
                var seen: [String: Int] = [:]
                for shift in resolved.sorted(by: { $0.start < $1.start }) {
                    let source = "\(id)\u{1F}\(shift.source)\u{1F}\(shift.employeeID)"
                    let ordinal = seen[source, default: 0]
                    seen[source] = ordinal + 1
                    let entry = Entry(
                        schedule: id, scheduleName: definition.name,
                        shift: .init(start: shift.start, end: shift.end), previously: nil, zone: definition.zone)
                    found[shift.employeeID, default: [:]]["\(source)\u{1F}\(ordinal)"] = entry
                }
            }
            return found
        }
        let before = byPerson(previous, resolvedBefore), after = byPerson(current, resolvedAfter)
        var events: [NotificationEvent] = []
        for person in Set(before.keys).union(after.keys).sorted() {
            let old = before[person] ?? [:], new = after[person] ?? [:]
            var gained: [Entry] = [], lost: [Entry] = [], moved: [Entry] = []
            for (key, entry) in new {
                if let was = old[key] {
                    if was.shift != entry.shift {
                        var change = entry
                        change.previously = was.shift
                        moved.append(change)
                    }
                } else {
                    gained.append(entry)
                }
            }
            for (key, entry) in old where new[key] == nil { lost.append(entry) }
            guard !(gained.isEmpty && lost.isEmpty && moved.isEmpty) else { continue }
            let order: (Entry, Entry) -> Bool = { ($0.shift.startMs, $0.schedule) < ($1.shift.startMs, $1.schedule) }
            let data = NotificationPayload.ShiftsChanged(
                person: .init(person, in: current.employees[person] == nil ? previous : current), by: actor,
                gained: gained.sorted(by: order), lost: lost.sorted(by: order),
                moved: moved.sorted(by: order))
            let schedule = Set((gained + lost + moved).map(\.schedule))
            events.append(
                NotificationEvent(
                    type: .shiftsChanged, tenantID: tenantID, key: "rev:\(revision):shifts:\(person)",
                    revision: revision, about: now, due: now, planned: false,
                    scheduleIDs: schedule.sorted(), people: [person], data: data))
        }
        return events
    }

    /// Each cover request the change moved on: opened (or open again), taken, cancelled.
    private func requestSteps(
        previous: RosterState, current: RosterState, schedules: [String], revision: UInt64,
        now: UnixMillis, wanted: Set<NotificationType>
    ) -> [NotificationEvent] {
        var events: [NotificationEvent] = []
        for id in schedules {
            guard let schedule = current.schedules[id] else { continue }
            let before = Dictionary(
                (previous.schedules[id]?.requests ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for request in schedule.requests {
                let was = before[request.id]
                guard was?.stored != request.stored else { continue }
                let type: NotificationType, taker: String?
                switch request.stored {
                case .open: (type, taker) = (.requestOpened, was?.taker)
                case .taken: (type, taker) = (.requestTaken, request.taker)
                case .cancelled: (type, taker) = (.requestCancelled, was?.taker)
                case .expired: continue
                }
                guard wanted.contains(type) else { continue }
                events.append(
                    requestStep(
                        type, request, taker: taker, reopened: was != nil && type == .requestOpened,
                        schedule: schedule, state: current, revision: revision,
                        key: "rev:\(revision):request:\(request.id)",
                        about: now, due: now, planned: false))
            }
        }
        return events
    }

    func requestStep(
        _ type: NotificationType, _ request: CoverRequest, taker: String?, reopened: Bool,
        schedule: ScheduleDefinition, state: RosterState, revision: UInt64, key: String,
        about: UnixMillis, due: UnixMillis, planned: Bool
    ) -> NotificationEvent {
        func person(_ id: String) -> NotificationPayload.Person { .init(id, in: state) }
        let stateName =
            switch type {
            case .requestTaken: "taken"
            case .requestCancelled: "cancelled"
            case .requestExpired: "expired"
            default: "open"
            }
        let data = NotificationPayload.CoverRequestStep(
            schedule: .init(schedule), request: request.id, state: stateName,
            requester: person(request.requester), taker: taker.map(person),
            stretch: .init(start: request.start, end: request.end),
            addressedTo: request.addressedTo.map(person), note: request.note, reopened: reopened)
        let people = ([request.requester] + (taker.map { [$0] } ?? []) + request.addressedTo)
        return NotificationEvent(
            type: type, tenantID: tenantID, key: key, revision: revision, about: about, due: due, planned: planned,
            scheduleIDs: [schedule.id],
            people: people.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }, data: data)
    }

    // MARK: Written ahead of time

    // MARK: Parts

    /// What an on-duty change says: who before, now and next, until when (and in which zone),
    /// and why the first person now on duty is (with a change's author, or an override's).
    func onDutyData(_ change: OnDutyChange, state: RosterState, actor: String?) -> NotificationPayload.OnDutyChanged {
        func people(_ shifts: [Shift]) -> [NotificationPayload.Person] {
            shifts.map { .init($0.employeeID, in: state) }
        }
        let (scheduleID, previous, current) = (change.scheduleID, change.previous, change.current)
        let schedule = state.schedules[scheduleID]
        var data = NotificationPayload.OnDutyChanged(
            schedule: schedule.map(NotificationPayload.ScheduleRef.init) ?? .init(id: scheduleID, name: scheduleID),
            cause: change.cause.noticeName,
            previous: people(previous.current), current: people(current.current),
            until: current.until.map(Timestamp.iso8601), untilMs: current.until, next: people(current.next),
            zone: schedule?.zone)
        if let first = current.current.first, let schedule {
            let (kind, author) = schedule.dutyKind(ofShift: first.id)
            data.kind = kind.rawValue
            if kind != .rotation && kind != .shift && !author.isEmpty { data.by = author }
        }
        if change.cause == .planChanged, let actor, !actor.isEmpty { data.by = actor }
        return data
    }

    func onDutyChanged(
        _ change: OnDutyChange, data: NotificationPayload.OnDutyChanged, state: RosterState, revision: UInt64,
        key: String, planned: Bool
    ) -> NotificationEvent {
        let concerned = Set(change.previous.currentEmployeeIDs).union(change.current.currentEmployeeIDs).sorted()
        return NotificationEvent(
            type: .onDutyChanged, tenantID: tenantID, key: key, revision: revision, about: change.at,
            due: change.at, planned: planned, scheduleIDs: [change.scheduleID], people: concerned, data: data)
    }

    /// An announcement rule's post, for its webhook only.
    func announcement(
        _ rule: AnnounceRule, data: NotificationPayload.OnDutyChanged, trigger: String, revision: UInt64,
        key: String, about: UnixMillis, due: UnixMillis, planned: Bool
    ) -> NotificationEvent {
        let post = NotificationPayload.Announcement(
            schedule: data.schedule, rule: rule.id, trigger: trigger, current: data.current, until: data.until,
            untilMs: data.untilMs,
            next: data.next, zone: data.zone ?? "UTC", cause: trigger == "change" ? data.cause : nil, kind: data.kind,
            by: data.by)
        var event = NotificationEvent(
            type: .announcement, tenantID: tenantID, key: key, revision: revision, about: about, due: due,
            planned: planned, scheduleIDs: [rule.scheduleID], people: data.current.map(\.id), data: post)
        event.webhookID = rule.webhookID
        return event
    }

    /// The instants in [from, to) at `minuteOfDay` local time in `zone` on `weekdays` (empty:
    /// every day): a wall-clock time, so 09:00 Berlin is 08:00 UTC in winter and 07:00 in summer.
    static func instants(minuteOfDay: Int, weekdays: Set<Int>, zone: String, from: UnixMillis, to: UnixMillis)
        -> [UnixMillis]
    {
        guard let clock = WallClock(zone: zone), from < to else { return [] }
        var found: [UnixMillis] = []
        var day = clock.day(clock.day(of: from).day, adding: -1)
        let last = clock.day(clock.day(of: to).day, adding: 1)
        while day <= last {
            if weekdays.isEmpty || weekdays.contains(clock.weekday(of: day)) {
                let instant = clock.instant(day, minuteOfDay: minuteOfDay)
                if instant >= from && instant < to { found.append(instant) }
            }
            day = clock.day(day, adding: 1)
        }
        return found
    }

    struct Gap {
        var start: UnixMillis
        var end: UnixMillis?
        var key: String { "\(start):\(end.map(String.init) ?? "open")" }
    }

    /// The stretches in [from, to) with nobody on duty (one that began before `from` starts there).
    func gaps(in state: RosterState, scheduleID: String, from: UnixMillis, to: UnixMillis) -> [Gap] {
        gaps(of: state.onDutyIndex(of: scheduleID, around: from), from: from, to: to)
    }

    func gaps(of index: ScheduleOnDutyIndex?, from: UnixMillis, to: UnixMillis) -> [Gap] {
        guard let index else { return [] }
        return index.timeline(from: from, to: to, maxSteps: Self.maxShifts).filter(\.current.isEmpty).map {
            Gap(start: $0.at, end: $0.until)
        }
    }

    func coverageGap(
        _ gap: Gap, scheduleID: String, state: RosterState, revision: UInt64, due: UnixMillis,
        planned: Bool
    ) -> NotificationEvent {
        let data = NotificationPayload.CoverageGap(
            schedule: state.schedules[scheduleID].map(NotificationPayload.ScheduleRef.init)
                ?? .init(id: scheduleID, name: scheduleID),
            start: Timestamp.iso8601(gap.start), startMs: gap.start, end: gap.end.map(Timestamp.iso8601), endMs: gap.end
        )
        return NotificationEvent(
            type: .coverageGap, tenantID: tenantID, key: "gap:\(scheduleID):\(gap.key)", revision: revision,
            about: gap.start, due: due, planned: planned, scheduleIDs: [scheduleID], people: [], data: data)
    }
}
