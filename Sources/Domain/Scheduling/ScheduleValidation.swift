import Foundation

extension ScheduleDefinition {
    /// Everything wrong with these definitions, each naming where; empty when they may be
    /// stored. Overlapping overrides that touch the same person are refused, naming the other
    /// one (GoAlert's rule): resolving them silently by creation order is how people end up
    /// surprised by who is on duty.
    /// `name` says who an employee id is, in messages.
    public func violations(naming nameOf: (String) -> String = { $0 }) -> [RosterViolation] {
        var found: [RosterViolation] = []
        func add(_ location: String, _ field: String, _ message: String) {
            found.append(RosterViolation(location: location, field: field, message: message))
        }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { add("schedule \(id)", "name", "is empty") }
        if WallClock(zone: zone) == nil { add("schedule \(id)", "zone", "\"\(zone)\" is not an IANA time zone (e.g. Europe/Berlin)") }
        var rotationIDs = Set<String>()
        for layer in layers {
            for rotation in layer.rotations {
                let location = "rotation \(rotation.id)"
                if rotation.id.isEmpty { add(location, "id", "is empty") }
                if !rotationIDs.insert("\(rotation.id)#\(rotation.version)").inserted { add(location, "id", "is used twice") }
                if rotation.slots.isEmpty { add(location, "slots", "has no participants") }
                if !(1900...9999).contains(rotation.handoff.year) {
                    add(location, "handoff", "is not a local date-time such as 2026-11-30T09:00")
                }
                let multiplier: Int = switch rotation.cadence {
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
                }
            }
        }
        for override in overrides {
            let location = "override \(override.id)"
            if override.start >= override.end { add(location, "end", "the start is not before the end") }
            if !TimeRange.supported.contains(override.start) || !TimeRange.supported.contains(override.end) {
                add(location, "window", TimeRange.message)
            }
            if case .replace(let replaced, let replacement) = override.kind, replaced == replacement {
                add(location, "with", "replaces a person with themselves")
            }
        }
        // Conflicts: two overrides with overlapping windows that touch a common person.
        let sorted = overrides.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        for (index, first) in sorted.enumerated() {
            for second in sorted[(index + 1)...] {
                guard second.start < first.end else { break }
                let common = first.people.intersection(second.people).map(nameOf).sorted()
                if !common.isEmpty {
                    add("override \(second.id)", "window",
                        "overlaps override \(first.id), which also changes \(common.joined(separator: " and ")); "
                            + "change or remove that one first")
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
