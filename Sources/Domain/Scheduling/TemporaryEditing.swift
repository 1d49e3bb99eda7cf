/// Setting and clearing temporary schedules (GoAlert's model): spans that overlap or touch merge
/// into one, clearing a range splits a span, and the past never changes (a range that starts
/// before `now` is taken from `now`).
extension ScheduleDefinition {
    /// The definition with `shifts` as the only duty over [from, to) (from `now` when `from` is
    /// past). A span it overlaps or touches merges with it: the span's shifts outside the range
    /// stay. Without `allowGaps`, a range its shifts leave uncovered somewhere is refused, naming
    /// the first gap.
    public func settingTemporary(
        from: UnixMillis, to: UnixMillis, shifts: [TemporarySchedule.Shift], allowGaps: Bool,
        id newID: String, author: String, now: UnixMillis
    ) throws(RosterError) -> ScheduleDefinition {
        let requested = from
        let from = max(from, now)
        var problems: [RosterViolation] = []
        if !TimeRange.supported.contains(from) || !TimeRange.supported.contains(to) {
            problems.append(RosterViolation(field: "window", message: TimeRange.message))
        } else if from >= to {
            problems.append(
                RosterViolation(
                    field: "to", message: "the span must end after now and after its start (the past cannot change)"))
        }
        if shifts.count > TemporarySchedule.maxShifts {
            problems.append(
                RosterViolation(
                    field: "shifts", message: "a temporary schedule holds at most \(TemporarySchedule.maxShifts) shifts"
                ))
        }
        var clipped: [TemporarySchedule.Shift] = []
        for (index, shift) in shifts.enumerated() {
            guard requested <= shift.start, shift.start < shift.end, shift.end <= to else {
                problems.append(
                    RosterViolation(
                        location: "shift \(index + 1)", field: "shift",
                        message: "must lie inside the span, its start before its end"))
                continue
            }
            // What lies in the past is not set.
            if let kept = Self.cut(shift, from: from, to: to) { clipped.append(kept) }
        }
        if !problems.isEmpty { throw .invalid(problems) }
        if !allowGaps, let gap = Self.firstGap(in: clipped, from: from, to: to) {
            throw .invalid([
                RosterViolation(
                    field: "shifts",
                    message: "nobody is on duty from \(Self.text(gap.start)) to \(Self.text(gap.end)): "
                        + "add a shift there, or say --allow-gaps")
            ])
        }
        var next = self
        var merged = TemporarySchedule(id: newID, start: from, end: to, shifts: clipped, author: author)
        var kept: [TemporarySchedule] = []
        for span in temporary {
            guard span.start <= to && from <= span.end else { kept.append(span); continue }
            // Its shifts outside the new range stay; the earliest span's id is kept.
            if span.start < merged.start || (span.start == merged.start && merged.id == newID) { merged.id = span.id }
            merged.start = min(merged.start, span.start)
            merged.end = max(merged.end, span.end)
            merged.shifts += span.shifts.flatMap { Self.outside($0, from: from, to: to) }
        }
        merged.shifts.sort { ($0.start, $0.employeeID) < ($1.start, $1.employeeID) }
        kept.append(merged)
        next.temporary = kept.sorted { $0.start < $1.start }
        return next
    }

    /// The definition with no temporary schedule over [from, to) (from `now` when `from` is
    /// past): a span across the range keeps its parts before and after it (the later part under
    /// `newID`). Throws when no span overlaps the range.
    public func clearingTemporary(from: UnixMillis, to: UnixMillis, newID: String, now: UnixMillis) throws(RosterError)
        -> ScheduleDefinition
    {
        let from = max(from, now)
        guard from < to else {
            throw .invalid([
                RosterViolation(
                    field: "to", message: "the range must end after now and after its start (the past cannot change)")
            ])
        }
        guard temporary.contains(where: { $0.start < to && from < $0.end }) else {
            throw .notFound(
                "temporary schedule between \(Self.text(from)) and \(Self.text(to)) in schedule \"\(name)\"",
                suggestions: temporary.map { "\(Self.text($0.start))–\(Self.text($0.end))" })
        }
        var next = self
        next.temporary = temporary.flatMap { span -> [TemporarySchedule] in
            guard span.start < to && from < span.end else { return [span] }
            var parts: [TemporarySchedule] = []
            if span.start < from {
                parts.append(
                    TemporarySchedule(
                        id: span.id, start: span.start, end: from,
                        shifts: span.shifts.compactMap { Self.cut($0, from: span.start, to: from) }, author: span.author
                    ))
            }
            if to < span.end {
                parts.append(
                    TemporarySchedule(
                        id: parts.isEmpty ? span.id : newID, start: to, end: span.end,
                        shifts: span.shifts.compactMap { Self.cut($0, from: to, to: span.end) }, author: span.author))
            }
            return parts
        }
        return next
    }

    /// The first stretch of [from, to) no shift covers.
    static func firstGap(in shifts: [TemporarySchedule.Shift], from: UnixMillis, to: UnixMillis) -> (
        start: UnixMillis, end: UnixMillis
    )? {
        var covered = from
        for interval in IntervalUnion.of(shifts.map { ($0.start, $0.end) }) {
            if interval.start > covered { return (covered, interval.start) }
            covered = max(covered, interval.end)
        }
        return covered < to ? (covered, to) : nil
    }

    static func cut(_ shift: TemporarySchedule.Shift, from: UnixMillis, to: UnixMillis) -> TemporarySchedule.Shift? {
        let (s, e) = (max(shift.start, from), min(shift.end, to))
        return s < e ? TemporarySchedule.Shift(employeeID: shift.employeeID, start: s, end: e) : nil
    }

    /// The parts of `shift` before `from` and after `to`.
    static func outside(_ shift: TemporarySchedule.Shift, from: UnixMillis, to: UnixMillis) -> [TemporarySchedule.Shift]
    {
        [cut(shift, from: .min, to: from), cut(shift, from: to, to: .max)].compactMap { $0 }
    }

    static func text(_ instant: UnixMillis) -> String {
        WallClock(timeZone: .gmt).local(instant).description + "Z"
    }
}
