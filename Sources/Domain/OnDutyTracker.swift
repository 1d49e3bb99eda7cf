/// Why who is on duty on a schedule changed. The server's pushes, its webhook notices and the
/// client all use this one list.
public enum OnDutyCause: String, Sendable, Hashable, CaseIterable {
    /// The state at subscribe or resume.
    case initial
    /// A shift started or ended.
    case boundary
    /// An admin change altered who is on duty now.
    case planChanged = "plan-changed"
    /// The server's wall clock was set.
    case clockJump = "clock-jump"

    /// The name webhook notices give the cause (docs/NOTIFICATIONS.md): a boundary is a "handoff".
    public var noticeName: String { self == .boundary ? "handoff" : rawValue }
}

/// A change of who is on duty on one schedule: the set before, the set after, and why.
public struct OnDutyChange: Sendable, Hashable {
    public var scheduleID: String
    public var previous: OnDutyLookup
    public var current: OnDutyLookup
    public var cause: OnDutyCause

    public init(scheduleID: String, previous: OnDutyLookup, current: OnDutyLookup, cause: OnDutyCause) {
        (self.scheduleID, self.previous, self.current, self.cause) = (scheduleID, previous, current, cause)
    }

    /// The instant of the change: the handoff for a boundary, the instant looked at otherwise.
    public var at: UnixMillis { current.at }
}

/// Decides when who is on duty changes, and why; the one place that does.
///
/// A tenant keeps one: per schedule, the on-duty index and the set last announced. The server
/// asks it after each revision (`reindex`, then `look(cause: .planChanged)`), at the instant it
/// names (`nextLook`, then `look(cause: .boundary)` for the schedules `due`), and after the wall
/// clock was set. A look announces a schedule only when its *set of people* differs from the one
/// last announced, so back-to-back shifts of one person, or a shift extended, are not changes.
/// Webhook notices use the same comparison (`change(scheduleID:before:after:at:cause:)`) and the
/// same handoffs (`handoffs(scheduleID:in:from:to:)`), so a push and a notice cannot disagree.
public struct OnDutyTracker: Sendable {
    /// Per schedule: the index lookups use (queries share it) and the set last announced.
    public private(set) var indexes: [String: ScheduleOnDutyIndex] = [:]
    public private(set) var announced: [String: OnDutyLookup] = [:]

    /// At most this many handoffs are walked to find the one a late boundary look should state.
    static let maxHandoffsCaughtUp = 64

    /// Tracks every schedule of `state`, taking the sets at `now` as announced.
    public init(state: RosterState, at now: UnixMillis) {
        for id in state.schedules.keys {
            guard let index = state.onDutyIndex(of: id, around: now) else { continue }
            indexes[id] = index
            announced[id] = index.lookup(at: now)
        }
    }

    /// Takes the sets at `now` as announced, without announcing them (start-up: subscribers get
    /// them in their initial sync).
    public mutating func settle(at now: UnixMillis) {
        for (id, index) in indexes { announced[id] = index.lookup(at: now) }
    }

    /// Builds `schedules`' indexes again from `state` (a revision changed them); a schedule no
    /// longer in `state` loses its index, and its next look announces nobody.
    public mutating func reindex(_ schedules: Set<String>, in state: RosterState, at now: UnixMillis) {
        for id in schedules { indexes[id] = state.onDutyIndex(of: id, around: now) }
    }

    /// The instant a look is next needed: the earliest handoff announced or index rebuild due.
    public var nextLook: UnixMillis? {
        var next = UnixMillis.max
        for (id, index) in indexes { next = min(next, announced[id]?.until ?? .max, index.rebuildAt ?? .max) }
        return next == .max ? nil : next
    }

    /// The schedules whose handoff or index rebuild is due at `now`. An early alarm finds none.
    public func due(at now: UnixMillis) -> Set<String> {
        Set(
            indexes.compactMap { id, index in
                (announced[id]?.until ?? .max) <= now || (index.rebuildAt ?? .max) <= now ? id : nil
            })
    }

    /// Looks at `schedules` at `now` and returns, in schedule order, those whose set of people
    /// differs from the one last announced; they are announced from here on. A boundary look
    /// states the set at the handoff it is late for, not at the instant it woke (§7.5). Until and
    /// next are kept up to date even when the set is unchanged (a shift was extended).
    public mutating func look(
        at now: UnixMillis, cause: OnDutyCause, schedules: Set<String>,
        in state: RosterState
    ) -> [OnDutyChange] {
        var changes: [OnDutyChange] = []
        for id in schedules.sorted() {
            let previous = announced[id] ?? Self.nobody(at: now)
            var lookup = Self.nobody(at: now)
            if var index = indexes[id] {
                if !index.validFor.contains(now), let rebuilt = state.onDutyIndex(of: id, around: now) {
                    index = rebuilt
                    indexes[id] = rebuilt
                }
                lookup = index.lookup(at: now)
                if cause == .boundary, let atHandoff = Self.atLastHandoff(index, since: previous, now: now) {
                    lookup = atHandoff
                }
                announced[id] = lookup
            } else {
                announced[id] = nil
            }
            if let change = Self.change(scheduleID: id, from: previous, to: lookup, cause: cause) {
                changes.append(change)
            }
        }
        return changes
    }

    // MARK: The rules, for derivations that hold no tracker (webhook notices)

    /// A change when the set of people differs between `previous` and `current`; nil otherwise.
    public static func change(
        scheduleID: String, from previous: OnDutyLookup, to current: OnDutyLookup,
        cause: OnDutyCause
    ) -> OnDutyChange? {
        guard Set(previous.currentEmployeeIDs) != Set(current.currentEmployeeIDs) else { return nil }
        return OnDutyChange(scheduleID: scheduleID, previous: previous, current: current, cause: cause)
    }

    /// What an admin change did to who is on duty now: the schedule's index before and after it
    /// (nil: the schedule does not exist there).
    public static func change(
        scheduleID: String, before: ScheduleOnDutyIndex?, after: ScheduleOnDutyIndex?,
        at now: UnixMillis
    ) -> OnDutyChange? {
        change(
            scheduleID: scheduleID, from: before?.lookup(at: now) ?? nobody(at: now),
            to: after?.lookup(at: now) ?? nobody(at: now), cause: .planChanged)
    }

    /// The handoffs in [from, to) under `index`, each a boundary change at its instant; one at
    /// `from` itself counts (the set just before it is the one compared with).
    public static func handoffs(
        scheduleID: String, in index: ScheduleOnDutyIndex, from: UnixMillis,
        to: UnixMillis
    ) -> [OnDutyChange] {
        let stretches = index.timeline(from: from - 1, to: to)
        return zip(stretches, stretches.dropFirst()).compactMap { previous, next in
            guard next.at >= from, next.at < to else { return nil }
            return change(scheduleID: scheduleID, from: previous, to: next, cause: .boundary)
        }
    }

    static func nobody(at instant: UnixMillis) -> OnDutyLookup {
        OnDutyLookup(at: instant, current: [], until: nil, next: [])
    }

    /// The set at the last handoff at or before `now`, walked from the handoff last announced.
    /// Nil when that is not known within a few steps or outside the index (then `now` is stated).
    static func atLastHandoff(_ index: ScheduleOnDutyIndex, since previous: OnDutyLookup, now: UnixMillis)
        -> OnDutyLookup?
    {
        guard var handoff = previous.until, handoff <= now else { return nil }
        for _ in 0..<maxHandoffsCaughtUp {
            guard index.validFor.contains(handoff) else { return nil }
            let there = index.lookup(at: handoff)
            guard let next = there.until, next <= now else { return there }
            handoff = next
        }
        return nil
    }
}
