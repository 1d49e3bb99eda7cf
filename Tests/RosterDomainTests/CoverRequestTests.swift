import RosterDomain
import Testing

/// A cover request's state at an instant, and what a schedule keeps of them.
@Suite(.timeLimit(.minutes(10))) struct CoverRequestTests {
    let day: UnixMillis = 86_400_000
    let now: UnixMillis = 1_796_025_600_000

    @Test func anOpenRequestExpiresAtItsStartAndOtherStatesStay() {
        let open = CoverRequest(id: "r", requester: "a", start: now, end: now + day, opened: now - day)
        #expect(open.state(at: now - 1) == .open && open.state(at: now) == .expired)
        var taken = open
        taken.stored = .taken
        #expect(taken.state(at: now + 1) == .taken)
    }

    @Test func closedRequestsAreKeptThirtyDaysAndTwoHundredAtMost() {
        var requests: [CoverRequest] = []
        // 250 cancelled recently (changed one after another), 3 open ahead, one closed long ago.
        for index in 0..<250 {
            requests.append(
                CoverRequest(
                    id: "c\(index)", requester: "a", start: now + day, end: now + 2 * day, stored: .cancelled,
                    opened: now - day, changed: now - 1_000 + UnixMillis(index)))
        }
        for index in 0..<3 {
            requests.append(
                CoverRequest(id: "o\(index)", requester: "a", start: now + day, end: now + 2 * day, opened: now - day))
        }
        requests.insert(
            CoverRequest(
                id: "old", requester: "a", start: now - 40 * day, end: now - 39 * day, stored: .cancelled,
                opened: now - 41 * day), at: 0)
        let kept = CoverRequest.pruned(requests, at: now)
        #expect(kept.filter { $0.stored == .open }.map(\.id) == ["o0", "o1", "o2"])
        let closed = kept.filter { $0.stored == .cancelled }.map(\.id)
        #expect(
            closed.count == CoverRequest.maxKept && closed.first == "c50" && closed.last == "c249",
            "the most recently changed")
        #expect(!kept.contains { $0.id == "old" }, "closed more than 30 days after its end")
        // An open request past its start is expired, hence closed, and counts as such.
        let expired = CoverRequest(id: "x", requester: "a", start: now - day, end: now + day, opened: now - 2 * day)
        #expect(CoverRequest.pruned([expired], at: now).map(\.id) == ["x"])
    }
}
