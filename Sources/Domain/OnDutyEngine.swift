/// Who is on duty at an instant, until when, and who comes next.
public struct OnDutyLookup: Sendable, Hashable {
    /// The instant asked about.
    public var at: UnixMillis
    /// One shift per person on duty (their earliest-starting one), earliest start first, then by
    /// last name.
    public var current: [Shift]
    /// When the set of people on duty next changes; nil when it never does under this plan.
    public var until: UnixMillis?
    /// The shifts of the people on duty from `until` on, in the same order.
    public var next: [Shift]

    public init(at: UnixMillis, current: [Shift], until: UnixMillis?, next: [Shift]) {
        self.at = at
        self.current = current
        self.until = until
        self.next = next
    }

    public var currentEmployeeIDs: [String] { current.map(\.employeeID) }
}

/// Answers on-duty lookups over a fixed plan.
///
/// The plan is cut at every shift start and end into segments during which the set of active
/// shifts is constant. Segment k covers [boundaries[k-1], boundaries[k]) (segment 0 is everything
/// before the first boundary, the last one everything after the final boundary). Each segment
/// stores its people in display order, and the index of the next segment whose *set of people*
/// differs, so back-to-back shifts of the same person are not reported as a change.
///
/// Building is O(n log n + S) for n shifts and S total segment memberships (S is O(n) when few
/// shifts overlap, O(n²) in the worst case of everyone overlapping everyone). A lookup is a
/// binary search over the sorted boundaries: O(log n), plus O(k) to copy out the k people.
public struct OnDutyEngine: Sendable {
    private let shifts: [Shift]
    private let boundaries: [UnixMillis]
    /// CSR layout: the members of segment k are members[memberStart[k] ..< memberStart[k+1]].
    private let memberStart: [Int]
    private let members: [Int32]
    /// For each segment, the index of the next segment whose people differ, or nil.
    private let nextChange: [Int?]

    public var shiftCount: Int { shifts.count }

    /// - Parameter employees: used for the last-name tie-break in the display order.
    public init(shifts input: [Shift], employees: EmployeeDirectory = [:]) {
        let shifts = input.filter { $0.start < $0.end }
        self.shifts = shifts

        var instants: [UnixMillis] = []
        instants.reserveCapacity(shifts.count * 2)
        for shift in shifts {
            instants.append(shift.start)
            instants.append(shift.end)
        }
        instants.sort()
        var boundaries: [UnixMillis] = []
        boundaries.reserveCapacity(instants.count)
        for instant in instants where boundaries.last != instant { boundaries.append(instant) }
        self.boundaries = boundaries

        // Sweep: shifts sorted by start enter, shifts sorted by end leave. People are small
        // integers here, so a segment costs no hashing and no allocation of its own (a string
        // dictionary per segment was most of the time of an index over thousands of shifts).
        let byStart = shifts.indices.sorted { shifts[$0].start < shifts[$1].start }
        let byEnd = shifts.indices.sorted { shifts[$0].end < shifts[$1].end }
        var personNumbers: [String: Int32] = [:]
        let personOf: [Int32] = shifts.map { shift in
            if let number = personNumbers[shift.employeeID] { return number }
            let number = Int32(personNumbers.count)
            personNumbers[shift.employeeID] = number
            return number
        }
        let segmentCount = boundaries.count + 1
        var memberStart = [Int](repeating: 0, count: segmentCount + 1)
        var members: [Int32] = []
        // The people of each segment, sorted, CSR like the members: for "did the set change".
        var peopleStart = [Int](repeating: 0, count: segmentCount + 1)
        var people: [Int32] = []

        func precedes(_ a: Int, _ b: Int) -> Bool {
            let sa = shifts[a], sb = shifts[b]
            if sa.start != sb.start { return sa.start < sb.start }
            if let ea = employees[sa.employeeID], let eb = employees[sb.employeeID], ea.id != eb.id {
                return Employee.displayOrder(ea, eb)
            }
            if sa.employeeID != sb.employeeID { return sa.employeeID < sb.employeeID }
            return sa.id < sb.id
        }

        // The active shifts, with each one's position for O(1) removal.
        var active: [Int] = []
        var position = [Int](repeating: -1, count: shifts.count)
        // Per person, their chosen shift in the current segment (-1: none); reset after use.
        var chosenOf = [Int](repeating: -1, count: personNumbers.count)
        var chosen: [Int] = []
        var startCursor = 0, endCursor = 0
        for (k, boundary) in boundaries.enumerated() {
            while endCursor < byEnd.count, shifts[byEnd[endCursor]].end == boundary {
                let leaving = byEnd[endCursor]
                let at = position[leaving], last = active.removeLast()
                if last != leaving { active[at] = last; position[last] = at }
                position[leaving] = -1
                endCursor += 1
            }
            while startCursor < byStart.count, shifts[byStart[startCursor]].start == boundary {
                position[byStart[startCursor]] = active.count
                active.append(byStart[startCursor])
                startCursor += 1
            }
            // One entry per person: their earliest-starting active shift.
            chosen.removeAll(keepingCapacity: true)
            for index in active {
                let person = Int(personOf[index])
                let existing = chosenOf[person]
                if existing < 0 {
                    chosenOf[person] = index
                    chosen.append(person)
                } else if precedes(index, existing) {
                    chosenOf[person] = index
                }
            }
            let ordered = chosen.map { chosenOf[$0] }.sorted(by: precedes)
            memberStart[k + 1] = members.count
            members.append(contentsOf: ordered.map { Int32($0) })
            memberStart[k + 2] = members.count
            peopleStart[k + 1] = people.count
            people.append(contentsOf: chosen.sorted().map { Int32($0) })
            peopleStart[k + 2] = people.count
            for person in chosen { chosenOf[person] = -1 }
        }
        self.memberStart = memberStart
        self.members = members

        func samePeople(_ a: Int, _ b: Int) -> Bool {
            people[peopleStart[a]..<peopleStart[a + 1]].elementsEqual(people[peopleStart[b]..<peopleStart[b + 1]])
        }
        var nextChange = [Int?](repeating: nil, count: segmentCount)
        if segmentCount >= 2 {
            for k in stride(from: segmentCount - 2, through: 0, by: -1) {
                nextChange[k] = !samePeople(k + 1, k) ? k + 1 : nextChange[k + 1]
            }
        }
        self.nextChange = nextChange
    }

    /// Who is on duty at `instant`. O(log n + k).
    public func lookup(at instant: UnixMillis) -> OnDutyLookup {
        let segment = segmentIndex(containing: instant)
        let current = shiftsOf(segment: segment)
        guard let change = nextChange[segment] else {
            return OnDutyLookup(at: instant, current: current, until: nil, next: [])
        }
        return OnDutyLookup(
            at: instant, current: current, until: boundaries[change - 1], next: shiftsOf(segment: change))
    }

    /// The number of boundaries at or before `instant`, which is the segment holding it.
    private func segmentIndex(containing instant: UnixMillis) -> Int {
        var low = 0, high = boundaries.count
        while low < high {
            let mid = (low + high) / 2
            if boundaries[mid] <= instant { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func shiftsOf(segment: Int) -> [Shift] {
        members[memberStart[segment]..<memberStart[segment + 1]].map { shifts[Int($0)] }
    }
}
