import Foundation

extension ScheduleDefinition {
    /// Everything wrong with these definitions, each naming where; empty when they may be
    /// stored. Overlapping overrides that touch the same person are refused, naming the other
    /// one (GoAlert's rule): resolving them silently by creation order is how people end up
    /// surprised by who is on duty.
    /// `name` says who an employee id is, in messages; `stored` are the ids of the overrides
    /// already on the schedule, which a conflict names as the one to change (not the new one).
    public func violations(naming nameOf: (String) -> String = { $0 }, stored: Set<String> = []) -> [RosterViolation] {
        var found: [RosterViolation] = []
        func add(_ location: String, _ field: String, _ message: String) {
            found.append(RosterViolation(location: location, field: field, message: message))
        }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { add("schedule \(id)", "name", "is empty") }
        if WallClock(zone: zone) == nil {
            add("schedule \(id)", "zone", "\"\(zone)\" is not an IANA time zone (e.g. Europe/Berlin)")
        }
        var rotationIDs = Set<String>()
        for layer in layers {
            for rotation in layer.rotations {
                let location = "rotation \(rotation.id)"
                if let problem = TextLimits.idProblem(rotation.id) { add(location, "id", problem) }
                if !rotationIDs.insert("\(rotation.id)#\(rotation.version)").inserted {
                    add(location, "id", "is used twice")
                }
                if rotation.slots.isEmpty { add(location, "slots", "has no participants") }
                if !(1900...9999).contains(rotation.handoff.year) {
                    add(location, "handoff", "is not a local date-time such as 2026-11-30T09:00")
                }
                let multiplier: Int =
                    switch rotation.cadence {
                    case .hours(let n), .days(let n), .weeks(let n), .months(let n), .minutes(let n): n
                    }
                if multiplier < 1 { add(location, "cadence", "must be at least 1") }
                // Bounds that keep turn arithmetic far from overflow whatever an admin sends.
                if multiplier > 1000 { add(location, "cadence", "is at most 1000 of its unit") }
                if rotation.slots.count > 1000 { add(location, "slots", "are at most 1000") }
                if !(0...1_000_000).contains(rotation.slotOffset) { add(location, "slot_offset", "is 0 to 1,000,000") }
                if rotation.restrictions.count > 100 { add(location, "restrictions", "are at most 100") }
                for (field, instant) in [("end", rotation.end), ("since", rotation.since)] {
                    if let instant, !TimeRange.supported.contains(instant) { add(location, field, TimeRange.message) }
                }
                for window in rotation.restrictions {
                    if !window.weekdays.isSubset(of: 1...7) || window.weekdays.isEmpty {
                        add(location, "restrictions", "weekdays are 1 (Sunday) to 7 (Saturday), at least one")
                    }
                    if !(0...1440).contains(window.start) || !(0...1440).contains(window.end) {
                        add(location, "restrictions", "times are minutes 0 to 1440 after midnight")
                    }
                    if !window.exceptHolidays.isEmpty, let problem = HolidaySet.nameProblem(window.exceptHolidays) {
                        add(location, "restrictions", problem)
                    }
                    if let monthly = window.monthly {
                        let most = monthly.weekday == nil ? 31 : 5
                        if !((1...most).contains(monthly.nth) || monthly.nth == -1) {
                            add(
                                location, "restrictions",
                                monthly.weekday == nil
                                    ? "a day of the month is 1 to 31, or last" : "the nth weekday is 1 to 5, or last")
                        }
                        if let weekday = monthly.weekday, !(1...7).contains(weekday) {
                            add(location, "restrictions", "a weekday is 1 (Sunday) to 7 (Saturday)")
                        }
                        if !(1...12).contains(monthly.everyMonths) {
                            add(location, "restrictions", "every 1 to 12 months")
                        }
                    }
                }
            }
        }
        for override in overrides {
            let location = "override \(override.id)"
            if let problem = TextLimits.idProblem(override.id) { add(location, "id", problem) }
            if ControlCharacters.contains(in: override.reason, allowingLineBreaks: true) {
                add(location, "reason", "contains a control character")
            }
            if override.reason.count > TextLimits.maxLine {
                add(location, "reason", "is longer than \(TextLimits.maxLine) characters")
            }
            if override.start >= override.end { add(location, "end", "the start is not before the end") }
            if !TimeRange.supported.contains(override.start) || !TimeRange.supported.contains(override.end) {
                add(location, "window", TimeRange.message)
            }
            if case .replace(let replaced, let replacement) = override.kind, replaced == replacement {
                add(location, "with", "replaces a person with themselves")
            }
        }
        for override in overrides
        where override.source.count > TextLimits.maxID || ControlCharacters.contains(in: override.source) {
            add("override \(override.id)", "source", "is not a source the server writes")
        }
        if requests.count > CoverRequest.maxPerSchedule {
            add("", "requests", "a schedule keeps at most \(CoverRequest.maxPerSchedule) cover requests")
        }
        for request in requests.prefix(CoverRequest.maxPerSchedule + 1) {
            let location = "request \(request.id)"
            if let problem = TextLimits.idProblem(request.id) { add(location, "id", problem) }
            if ControlCharacters.contains(in: request.note, allowingLineBreaks: true) {
                add(location, "note", "contains a control character")
            }
            if request.note.count > TextLimits.maxLine {
                add(location, "note", "is longer than \(TextLimits.maxLine) characters")
            }
            if request.start >= request.end { add(location, "end", "the start is not before the end") }
            if !TimeRange.supported.contains(request.start) || !TimeRange.supported.contains(request.end) {
                add(location, "window", TimeRange.message)
            }
            if request.addressedTo.count > 100 { add(location, "addressed_to", "names at most 100 people") }
        }
        if temporary.count > TemporarySchedule.maxSpans {
            add("", "temporary", "a schedule keeps at most \(TemporarySchedule.maxSpans) temporary schedules")
        }
        for (index, span) in temporary.prefix(TemporarySchedule.maxSpans + 1).enumerated() {
            let location = "temporary \(span.id)"
            if let problem = TextLimits.idProblem(span.id) { add(location, "id", problem) }
            if span.start >= span.end { add(location, "end", "the start is not before the end") }
            if !TimeRange.supported.contains(span.start) || !TimeRange.supported.contains(span.end) {
                add(location, "window", TimeRange.message)
            }
            if index > 0, temporary[index - 1].end > span.start {
                add(location, "start", "overlaps temporary \(temporary[index - 1].id) (spans are merged when added)")
            }
            if span.shifts.count > TemporarySchedule.maxShifts {
                add(location, "shifts", "a temporary schedule holds at most \(TemporarySchedule.maxShifts) shifts")
            }
            for shift in span.shifts.prefix(TemporarySchedule.maxShifts + 1)
            where shift.start >= shift.end || shift.start < span.start || shift.end > span.end {
                add(location, "shifts", "\(nameOf(shift.employeeID))'s shift is empty or outside the span")
            }
        }
        found += overrideConflicts(naming: nameOf, stored: stored)
        return found
    }
}

extension ScheduleDefinition {
    /// The most conflicts reported at once (a file of thousands of overlapping overrides would
    /// otherwise produce millions of lines).
    static let maxReportedConflicts = 100

    /// Two overrides with overlapping windows that touch a common person. A sweep by start keeps,
    /// per person, the overrides still running: O(n log n) for a valid schedule (where each
    /// person has at most one running), however many overrides it has.
    func overrideConflicts(naming nameOf: (String) -> String, stored: Set<String>) -> [RosterViolation] {
        var found: [RosterViolation] = []
        var running: [String: [ScheduleOverride]] = [:]
        for second in overrides.sorted(by: { ($0.start, $0.id) < ($1.start, $1.id) }) {
            var common: [String: Set<String>] = [:]
            var firsts: [ScheduleOverride] = []
            for person in second.people.sorted() {
                running[person]?.removeAll { $0.end <= second.start }
                for first in running[person] ?? [] {
                    if common[first.id] == nil { firsts.append(first) }
                    common[first.id, default: []].insert(person)
                }
                running[person, default: []].append(second)
            }
            for first in firsts {
                // The report is about the override being added; it names the one already stored.
                let (subject, other) =
                    stored.contains(second.id) && !stored.contains(first.id) ? (first, second) : (second, first)
                let people = common[first.id, default: []].map(nameOf).sorted().joined(separator: " and ")
                found.append(
                    RosterViolation(
                        location: "override \(subject.id)", field: "window",
                        message:
                            "overlaps override \(other.id), which also changes \(people); change or remove that one first"
                    ))
                if found.count >= Self.maxReportedConflicts {
                    found.append(
                        RosterViolation(location: "overrides", field: "window", message: "and possibly more conflicts"))
                    return found
                }
            }
        }
        return found
    }
}

extension ScheduleOverride {
    /// Everyone the override changes.
    var people: Set<String> {
        switch kind {
        case .replace(let replaced, let replacement): [replaced, replacement]
        case .add(let person), .remove(let person): [person]
        }
    }
}

/// The instants schedules are resolved for: years 1 to 9999. Wall-clock arithmetic outside them
/// would overflow, so requests and definitions beyond are refused with this message.
public enum TimeRange {
    public static let supported: ClosedRange<UnixMillis> = -62_135_596_800_000...253_402_300_799_999
    public static let message = "is not an instant between the years 1 and 9999"
}
