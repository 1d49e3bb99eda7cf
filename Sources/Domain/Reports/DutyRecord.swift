/// One stretch of duty as it was: who, on which schedule, when, and why. The record of the
/// past is made of these; a report's future is made of them too, resolved from the definitions
/// in force, so both halves are added up by the same code.
public struct RecordedStretch: Sendable, Hashable, Codable {
    /// Why the person was on duty.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case rotation
        /// A one-off shift.
        case shift
        /// An admin's override.
        case override
        /// A half of a swap (the override's source is "swap:ID").
        case swap
        /// A cover request taken (the override's source is "request:ID").
        case cover
        /// Duty taken by the person themself ("take:ID").
        case take
    }

    public var scheduleID: String
    public var employeeID: String
    public var start: UnixMillis
    public var end: UnixMillis
    public var kind: Kind
    /// The person whose duty this stretch covers (a replacing override: a swap or a cover
    /// request taken); empty otherwise.
    public var replacing: String

    public init(
        scheduleID: String, employeeID: String, start: UnixMillis, end: UnixMillis, kind: Kind, replacing: String = ""
    ) {
        (self.scheduleID, self.employeeID, self.start, self.end, self.kind, self.replacing) =
            (scheduleID, employeeID, start, end, kind, replacing)
    }
}

/// What a change or a recording round adds to the duty record, in the same transaction as the
/// change: stretches up to each schedule's new mark.
public struct DutyRecordWrite: Sendable, Equatable {
    public var stretches: [RecordedStretch] = []
    /// Schedule id → the instant the record of that schedule now reaches.
    public var marks: [String: UnixMillis] = [:]

    public init(stretches: [RecordedStretch] = [], marks: [String: UnixMillis] = [:]) {
        (self.stretches, self.marks) = (stretches, marks)
    }

    public var isEmpty: Bool { stretches.isEmpty && marks.isEmpty }
}

/// Where the duty record of one schedule begins and how far it reaches.
public struct DutyRecordMark: Sendable, Hashable {
    public var since: UnixMillis
    public var until: UnixMillis

    public init(since: UnixMillis, until: UnixMillis) { (self.since, self.until) = (since, until) }
}

/// The duty record: the final schedule as it actually was, written as time passes and frozen
/// whenever a change would otherwise rewrite it.
///
/// Each schedule has a mark: before it, the record holds the truth; after it, the definitions in
/// force have not changed since the mark, so resolving them gives the truth too. A change to a
/// schedule first records its old definition up to the change's instant (in the change's own
/// transaction); a recording round does the same every hour for every schedule, so that a change
/// never has more than an hour to record. The record of a schedule begins at its first mark (its
/// creation, or the first round after the server first ran with a record).
public enum DutyRecord {
    /// The most one recording (a change's or a round's, for one schedule) resolves: 35 days; a
    /// schedule whose mark lies further back is recorded from 35 days ago (a server stopped for
    /// longer leaves a hole, said in reports as "not recorded").
    public static let maxCatchUp: UnixMillis = 35 * 86_400_000

    /// The stretches of `definition` over [from, to), as the record keeps them.
    public static func stretches(
        of definition: ScheduleDefinition, from: UnixMillis, to: UnixMillis,
        budget: inout ResolutionBudget
    ) throws(ScheduleResolver.Problem) -> [RecordedStretch] {
        let shifts = try ScheduleResolver.resolve(definition, from: from, to: to, budget: &budget)
        guard !shifts.isEmpty else { return [] }
        let overrides = Dictionary(definition.overrides.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return shifts.map { shift in
            var stretch = RecordedStretch(
                scheduleID: definition.id, employeeID: shift.employeeID, start: shift.start, end: shift.end,
                kind: .rotation)
            switch shift.source {
            case .rotation: break
            case .shift, .temporary: stretch.kind = .shift
            case .override(let id):
                let override = overrides[id]
                stretch.kind = RecordedStretch.Kind(overrideSource: override?.source ?? "")
                if case .replace(let replaced, _) = override?.kind { stretch.replacing = replaced }
            }
            return stretch
        }
    }

    /// The schedules whose resolution `changes` alter (read against the state before them).
    public static func schedulesChanged(by changes: [RosterChange], before: RosterState) -> Set<String> {
        var found = Set<String>()
        func owner(_ scheduleID: String) -> String { scheduleID.isEmpty ? ScheduleDefinition.defaultID : scheduleID }
        for change in changes {
            switch change {
            case .scheduleUpserted(let definition): found.insert(definition.id)
            case .scheduleDeleted(let id): found.insert(id)
            case .shiftAdded(let shift): found.insert(owner(shift.scheduleID))
            case .shiftDeleted(let id): if let shift = before.shifts[id] { found.insert(owner(shift.scheduleID)) }
            case .timeOffSet, .timeOffDeleted, .holidaysSet, .holidaysDeleted:
                found.formUnion(before.schedulesMoved(by: change))
            case .employeeUpserted, .employeeDeleted, .motdSet, .escalationPolicySet, .escalationPolicyDeleted,
                .serviceSet, .serviceDeleted:
                break
            }
        }
        return found
    }

    /// What to record for `scheduleIDs` of `state` (the definitions in force until `now`): each
    /// from its mark (at most `maxCatchUp` back) to `now`, and the new marks. A schedule without a
    /// mark starts its record at `now`. A schedule that would cost more than a budget to record is
    /// left with its mark (and `skipped`): its definitions were bounded when stored, so this only
    /// happens past `maxCatchUp`-sized windows of sub-minute rotations.
    public static func record(
        _ scheduleIDs: some Sequence<String>, of state: RosterState, marks: [String: UnixMillis],
        now: UnixMillis
    ) -> (write: DutyRecordWrite, skipped: [String]) {
        var write = DutyRecordWrite(), skipped: [String] = []
        for id in scheduleIDs {
            guard let mark = marks[id] else {
                write.marks[id] = now
                continue
            }
            let from = max(mark, now - maxCatchUp)
            guard from < now else { continue }
            guard let definition = state.definition(of: id, from: from, to: now) else {
                write.marks[id] = now  // deleted earlier: nothing more to record
                continue
            }
            var budget = ResolutionBudget.standard
            do throws(ScheduleResolver.Problem) {
                write.stretches += try stretches(of: definition, from: from, to: now, budget: &budget)
                write.marks[id] = now
            } catch {
                if case .unknownZone = error { write.marks[id] = now } else { skipped.append(id) }
            }
        }
        return (write, skipped)
    }
}

/// The stretches a report adds up: what the record holds of the past, and what the current
/// definitions resolve to for the rest (the future, the past since the last mark, which they
/// still govern, and the past before the record began).
public enum ReportStretches {
    /// What resolving one report's window may cost: one request's worth, as for every query (a
    /// year of 100 daily rotations costs a tenth of it; a year of a minutely one is refused).
    public static let budget = ResolutionBudget.perRequest

    /// The stretches of `scheduleIDs` over [from, to) from `recorded` (the record's rows in the
    /// window) and `state`; a schedule that is gone contributes its record only.
    public static func gather(
        _ scheduleIDs: [String], state: RosterState, recorded: [RecordedStretch],
        marks: [String: DutyRecordMark], from: UnixMillis, to: UnixMillis
    ) throws(RosterError) -> [RecordedStretch] {
        var budget = ResolutionBudget(limit: budget)
        var result: [RecordedStretch] = []
        for id in scheduleIDs {
            var spans: [Range<UnixMillis>] = []
            if let mark = marks[id] {
                if from < mark.since { spans.append(from..<min(mark.since, to)) }
                if mark.until < to { spans.append(max(mark.until, from)..<to) }
            } else {
                spans.append(from..<to)
            }
            for span in spans where !span.isEmpty {
                guard let definition = state.definition(of: id, from: span.lowerBound, to: span.upperBound) else {
                    continue
                }
                do throws(ScheduleResolver.Problem) {
                    result += try DutyRecord.stretches(
                        of: definition, from: span.lowerBound, to: span.upperBound, budget: &budget)
                } catch {
                    if case .overBudget = error { throw .overBudget(error.description) }
                }
            }
        }
        let wanted = Set(scheduleIDs)
        result += recorded.filter { wanted.contains($0.scheduleID) }
        return result
    }
}

extension RecordedStretch.Kind {
    /// An override's kind by its source: "request:ID" a cover, "take:ID" a take, "swap:ID" a
    /// swap's half, anything else an admin's override.
    public init(overrideSource source: String) {
        self =
            source.hasPrefix("request:")
            ? .cover : source.hasPrefix("take:") ? .take : source.hasPrefix("swap:") ? .swap : .override
    }
}

extension ScheduleDefinition {
    /// Why the person of an on-duty answer's shift (by its id) is on duty, and an override's
    /// author (empty otherwise).
    public func dutyKind(ofShift shiftID: String) -> (kind: RecordedStretch.Kind, author: String) {
        if shiftID.hasPrefix("r:") { return (.rotation, "") }
        if shiftID.hasPrefix("o:"), let override = overrides.first(where: { shiftID.hasPrefix("o:\($0.id):") }) {
            return (RecordedStretch.Kind(overrideSource: override.source), override.author)
        }
        return (.shift, "")
    }
}
