/// How well a schedule covers its window and how evenly it spreads the load.
public struct QualityReport: Sendable, Hashable {
    public var scheduleID: String
    public var from: UnixMillis, to: UnixMillis
    /// The union of the time anyone is on duty (two people at once count once; Grafana OnCall
    /// added durations, so a doubly covered Monday hid an empty Saturday).
    public var covered: UnixMillis
    /// Every stretch of the window with nobody on duty, in order.
    public var gaps: [Range<UnixMillis>]
    /// Covered time per participant (rotation members count with 0 when they had none).
    public var hours: [String: UnixMillis]
    /// Grafana OnCall's balance, for comparison: the mean over every pair of participants of
    /// min(hours)/max(hours), as a percentage; 100 with fewer than two.
    public var balance: Double
    /// 100 − 100·σ/μ of the participants' hours (population σ), at least 0; 100 with no hours.
    public var equity: Double
    /// The participants' mean covered time, in milliseconds.
    public var mean: Double

    public var coverage: Double { to > from ? 100 * Double(covered) / Double(to - from) : 100 }

    /// Participants above the mean, by how much (milliseconds), most first.
    public var aboveMean: [(employeeID: String, by: UnixMillis)] {
        hours.filter { Double($0.value) > mean }
            .map { ($0.key, $0.value - UnixMillis(mean.rounded())) }
            .sorted { ($0.by, $1.employeeID) > ($1.by, $0.employeeID) }
    }

    /// The report of one schedule over [from, to) from its stretches; `participants` are the
    /// people its rotations name (counted even with no hours).
    public static func compute(
        scheduleID: String, stretches: [RecordedStretch], from: UnixMillis, to: UnixMillis,
        participants: Set<String>
    ) -> QualityReport {
        let clipped = stretches.filter { $0.scheduleID == scheduleID }.compactMap { stretch -> RecordedStretch? in
            var copy = stretch
            (copy.start, copy.end) = (max(stretch.start, from), min(stretch.end, to))
            return copy.start < copy.end ? copy : nil
        }
        let covering = IntervalUnion.of(clipped.map { ($0.start, $0.end) })
        var gaps: [Range<UnixMillis>] = []
        var cursor = from
        for interval in covering {
            if interval.start > cursor { gaps.append(cursor..<interval.start) }
            cursor = max(cursor, interval.end)
        }
        if cursor < to { gaps.append(cursor..<to) }
        var hours = Dictionary(uniqueKeysWithValues: participants.map { ($0, UnixMillis(0)) })
        for (person, own) in Dictionary(grouping: clipped, by: \.employeeID) {
            hours[person] = IntervalUnion.length(IntervalUnion.of(own.map { ($0.start, $0.end) }))
        }
        let values = hours.values.map(Double.init)
        var balance = 100.0
        if values.count >= 2 {
            var sum = 0.0, pairs = 0
            for i in values.indices {
                for j in values.indices where j > i {
                    let (low, high) = (min(values[i], values[j]), max(values[i], values[j]))
                    sum += high == 0 ? 1 : low / high
                    pairs += 1
                }
            }
            balance = 100 * sum / Double(pairs)
        }
        let mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        var equity = 100.0
        if mean > 0 {
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
            equity = max(0, 100 - 100 * variance.squareRoot() / mean)
        }
        return QualityReport(
            scheduleID: scheduleID, from: from, to: to, covered: IntervalUnion.length(covering), gaps: gaps,
            hours: hours, balance: balance, equity: equity, mean: mean)
    }
}

extension ScheduleDefinition {
    /// The people named in the slots of the rotations in force at some time of [from, to).
    public func participants(from: UnixMillis, to: UnixMillis) -> Set<String> {
        var people = Set<String>()
        for layer in layers {
            for rotation in layer.rotations where (rotation.end ?? .max) > from && (rotation.since ?? .min) < to {
                for slot in rotation.slots { people.formUnion(slot) }
            }
        }
        return people
    }
}
