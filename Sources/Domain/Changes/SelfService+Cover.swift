// Cover requests (docs/PROTOCOL.md §14.6): open, take (the first taker wins), decline,
// cancel, back out.

extension SelfService {
    static func cover(
        _ edit: ScheduleChangeRequest.CoverEdit, by person: Employee, in schedule: ScheduleDefinition,
        actor: Caller, state: RosterState, now: UnixMillis, newID: (String) -> String
    ) throws(RosterError) -> Planned {
        var after = schedule
        // Closed requests past their keeping go with any change.
        after.requests = CoverRequest.pruned(after.requests, at: now)
        let name = { (id: String) in state.employees[id]?.fullName ?? id }
        // One rule for every step (§14.6): the wrong person for the step is PERMISSION_DENIED;
        // the right person at the wrong time (closed, taken, begun) is FAILED_PRECONDITION.
        func refused(_ why: String) -> RosterError { .notNow(why) }
        func notTheirs(_ why: String) -> RosterError { .denied(why) }

        if edit.action == .open {
            try stretch(edit.start, edit.end)
            guard edit.start > now else {
                throw refused("that stretch has already started; ask for cover of what is still ahead")
            }
            guard after.requests.filter({ $0.state(at: now) == .open }).count < CoverRequest.maxOpen else {
                throw .full(
                    "schedule \"\(schedule.name)\" has \(CoverRequest.maxOpen) open cover requests, the most it holds")
            }
            guard edit.note.count <= TextLimits.maxLine,
                !ControlCharacters.contains(in: edit.note, allowingLineBreaks: true)
            else {
                throw .invalid([
                    RosterViolation(
                        field: "note", message: "at most \(TextLimits.maxLine) characters, no control characters")
                ])
            }
            let theirs = try resolved(schedule, from: edit.start, to: edit.end, state: state).filter {
                $0.employeeID == person.id
            }
            let mine = theirs.map { $0.start..<$0.end }
            guard covers(mine, edit.start..<edit.end) else {
                throw .denied(
                    "the stretch is not \(person.fullName)'s: they are not on duty on \"\(schedule.name)\" "
                        + "throughout it (`roster-client oncall --schedule` shows who is)")
            }
            guard edit.addressedTo.count <= 100 else {
                throw .invalid([RosterViolation(field: "addressed_to", message: "at most 100 people")])
            }
            // Whoever takes it replaces the requester there: duty that an override gives them
            // cannot be replaced by a second override on them (the rules refuse overlapping ones).
            for shift in theirs {
                guard case .override(let id) = shift.source else { continue }
                throw refused(
                    "part of that stretch is \(person.fullName)'s through override \(id), not the rotation; "
                        + (schedule.overrides.first { $0.id == id }?.source == ScheduleOverride.takeSource(person.id)
                            ? "undo the take (take --undo) instead" : "ask an admin to change that override"))
            }
            var addressed: [String] = []
            for reference in edit.addressedTo where !reference.trimmingCharacters(in: .whitespaces).isEmpty {
                guard let found = state.employee(idOrName: reference) else {
                    throw .notFound("employee \"\(reference)\"", suggestions: state.suggestions(for: reference))
                }
                if found.id != person.id, !addressed.contains(found.id) { addressed.append(found.id) }
            }
            let request = CoverRequest(
                id: newID("req"), requester: person.id, start: edit.start, end: edit.end,
                addressedTo: addressed, note: edit.note, opened: now, author: actor.author)
            after.requests.append(request)
            return Planned(
                before: schedule, after: after, created: [request.id],
                auditReason: reason(actor: actor, person: person, "asks for cover (\(request.id))", edit.note))
        }

        guard let index = after.requests.firstIndex(where: { $0.id == edit.requestID }) else {
            throw .missing("cover request \"\(edit.requestID)\" not found on schedule \"\(schedule.name)\"")
        }
        var request = after.requests[index]
        let current = request.state(at: now)
        let future = now < request.start
        let what: String
        switch edit.action {
        case .take:
            guard current == .open else { throw refused(closedSentence(request, current, name)) }
            guard request.requester != person.id else {
                throw notTheirs("\(person.fullName) asked for this cover; cancel it instead")
            }
            guard
                actor.isAdmin || request.isOffered(to: person.id, in: schedule)
                    || request.addressedTo.isEmpty && schedule.readersMayVolunteer
            else {
                throw .denied(
                    "request \(request.id) is addressed to "
                        + request.addressedTo.map(name).joined(separator: ", ") + ", not \(person.fullName)")
            }
            let override = ScheduleOverride(
                id: newID("ovr"), kind: .replace(replacing: request.requester, with: person.id),
                start: request.start, end: request.end, author: actor.author,
                reason: request.note, source: request.source)
            after.overrides.append(override)
            request.stored = .taken
            request.taker = person.id
            request.overrideID = override.id
            what = "takes cover request \(request.id) from \(name(request.requester))"
        case .decline:
            guard current == .open else { throw refused(closedSentence(request, current, name)) }
            guard request.requester != person.id else {
                throw notTheirs("\(person.fullName) asked for this cover; cancel it instead")
            }
            guard !request.declinedBy.contains(person.id) else {
                throw refused("\(person.fullName) has declined it already")
            }
            request.declinedBy.append(person.id)
            what = "declines cover request \(request.id)"
        case .cancel:
            guard request.requester == person.id || actor.isAdmin else {
                throw notTheirs("only \(name(request.requester)), who asked, may cancel request \(request.id)")
            }
            switch current {
            case .open: break
            case .taken where future:
                after.overrides.removeAll { $0.id == request.overrideID }
            case .taken:
                throw refused("request \(request.id) was taken by \(name(request.taker ?? "")) and has already started")
            case .cancelled, .expired: throw refused(closedSentence(request, current, name))
            }
            request.stored = .cancelled
            what = "cancels cover request \(request.id)"
        case .backOut:
            guard current == .taken else { throw refused(closedSentence(request, current, name)) }
            guard request.taker == person.id || actor.isAdmin && request.taker != nil else {
                throw notTheirs(
                    "request \(request.id) was taken by \(name(request.taker ?? "")), not \(person.fullName)")
            }
            guard future else {
                throw refused("request \(request.id) has already started: it can no longer be backed out of")
            }
            after.overrides.removeAll { $0.id == request.overrideID }
            what = "backs out of cover request \(request.id)"
            request.stored = .open
            request.declinedBy.removeAll { $0 == request.taker }
            request.taker = nil
            request.overrideID = nil
        case .open, nil:
            throw .invalid([RosterViolation(field: "action", message: "say open, take, decline, cancel or back_out")])
        }
        request.changed = now
        after.requests[index] = request
        return Planned(
            before: schedule, after: after, created: [request.id] + (request.overrideID.map { [$0] } ?? []),
            auditReason: reason(actor: actor, person: person, what, ""))
    }

    /// Why a request that is not open cannot be taken or declined.
    private static func closedSentence(_ request: CoverRequest, _ state: CoverRequest.State, _ name: (String) -> String)
        -> String
    {
        switch state {
        case .taken: "request \(request.id) is already taken by \(name(request.taker ?? ""))"
        case .cancelled: "request \(request.id) was cancelled"
        case .expired: "request \(request.id) has expired: its stretch has already started"
        case .open: "request \(request.id) is open"
        }
    }
}
