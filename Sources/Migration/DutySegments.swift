import RosterDomain

/// Who is on duty over a window as consecutive stretches, each with one set of people: the
/// common form both sides of a comparison are put in (a source's rendered list and Roster's
/// resolved shifts), and what an override is cut along.
struct DutySegment: Sendable, Hashable {
    var start: UnixMillis
    var end: UnixMillis
    var people: Set<String>

    /// [from, to) cut at every start and end of `intervals`, each piece with the people whose
    /// intervals cover it; touching pieces with the same people are joined. Pieces with nobody
    /// are kept: a gap is a stretch too.
    static func segments(
        _ intervals: [(person: String, start: UnixMillis, end: UnixMillis)], from: UnixMillis, to: UnixMillis
    )
        -> [DutySegment]
    {
        guard from < to else { return [] }
        var cuts = Set([from, to])
        for interval in intervals {
            if interval.start > from, interval.start < to { cuts.insert(interval.start) }
            if interval.end > from, interval.end < to { cuts.insert(interval.end) }
        }
        let instants = cuts.sorted()
        // Each interval's people added where it starts and taken away where it ends: a sweep.
        var starting: [UnixMillis: [String]] = [:], ending: [UnixMillis: [String]] = [:]
        for interval in intervals where interval.start < to && interval.end > from && interval.start < interval.end {
            starting[max(interval.start, from), default: []].append(interval.person)
            ending[min(interval.end, to), default: []].append(interval.person)
        }
        var counts: [String: Int] = [:]
        var result: [DutySegment] = []
        for (index, instant) in instants.dropLast().enumerated() {
            for person in ending[instant] ?? [] {
                counts[person, default: 0] -= 1
                if counts[person] == 0 { counts[person] = nil }
            }
            for person in starting[instant] ?? [] { counts[person, default: 0] += 1 }
            let people = Set(counts.keys)
            if let last = result.last, last.people == people, last.end == instant {
                result[result.count - 1].end = instants[index + 1]
            } else {
                result.append(DutySegment(start: instant, end: instants[index + 1], people: people))
            }
        }
        return result
    }
}
