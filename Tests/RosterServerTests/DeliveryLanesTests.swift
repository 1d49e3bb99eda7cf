import NIOConcurrencyHelpers
import Testing

@testable import RosterNotifications

/// The outbox's lanes (`DeliveryLanes`): at most `width` deliveries run at once per destination,
/// the rest wait first come first served, and one destination's queue never holds up another's.
@Suite(.timeLimit(.minutes(5))) struct DeliveryLanesTests {
    @Test func beyondItsWidthALaneQueuesAndHandsOutInOrder() {
        let lanes = DeliveryLanes<Int>(width: 3)
        let admitted = (1...7).map { lanes.admit($0, lane: "https://push.example", tenant: "acme") }
        #expect(admitted == [true, true, true, false, false, false, false])
        #expect(lanes.counts("https://push.example") == (3, 4))
        // Each delivery that ends takes the next in line while any waits, then the lane empties.
        var taken: [Int] = []
        while let next = lanes.next(in: "https://push.example") { taken.append(next) }
        #expect(taken == [4, 5, 6, 7])
        #expect(lanes.counts("https://push.example") == (2, 0), "the first ending found none left: one fewer runs")
        #expect(lanes.next(in: "https://push.example") == nil)
        #expect(lanes.next(in: "https://push.example") == nil)
        #expect(lanes.counts("https://push.example") == (0, 0))
        #expect(lanes.admit(8, lane: "https://push.example", tenant: "acme"), "an empty lane runs at once again")
    }

    @Test func aFullLaneDoesNotHoldUpAnother() {
        let lanes = DeliveryLanes<String>(width: 2)
        for index in 0..<50 { _ = lanes.admit("slow \(index)", lane: "https://slow.example", tenant: "acme") }
        #expect(lanes.counts("https://slow.example") == (2, 48))
        #expect(lanes.admit("fast", lane: "https://fast.example", tenant: "acme"))
        #expect(lanes.next(in: "https://fast.example") == nil)
        #expect(lanes.next(in: "https://slow.example") == "slow 2")
    }

    /// A push service is every tenant's: one tenant's handoff to thousands does not put
    /// another's few behind it.
    @Test func withinALaneTheWaitingTenantsTakeTurns() {
        let lanes = DeliveryLanes<String>(width: 1)
        #expect(lanes.admit("big 0", lane: "https://push.example", tenant: "big"))
        for index in 1...5 { _ = lanes.admit("big \(index)", lane: "https://push.example", tenant: "big") }
        _ = lanes.admit("small 0", lane: "https://push.example", tenant: "small")
        _ = lanes.admit("small 1", lane: "https://push.example", tenant: "small")
        _ = lanes.admit("other 0", lane: "https://push.example", tenant: "other")
        var taken: [String] = []
        while let next = lanes.next(in: "https://push.example") { taken.append(next) }
        #expect(taken == ["big 1", "small 0", "other 0", "big 2", "small 1", "big 3", "big 4", "big 5"])
        #expect(lanes.counts("https://push.example") == (0, 0))
    }

    @Test func aURLsLaneIsItsSchemeAndAuthority() {
        let lanes = DeliveryLanes<Int>()
        #expect(lanes.lane(of: "https://fcm.googleapis.com/fcm/send/abc:def") == "https://fcm.googleapis.com")
        #expect(lanes.lane(of: "http://127.0.0.1:8080/push/1-2?x=1") == "http://127.0.0.1:8080")
        #expect(lanes.lane(of: "http://[::1]:9000#top") == "http://[::1]:9000")
        #expect(lanes.lane(of: "https://ntfy.example.org?up=1") == "https://ntfy.example.org")
        #expect(lanes.lane(of: "https://hooks.example") == "https://hooks.example")
        #expect(lanes.lane(of: "https://user:secret@hooks.example/in") == "https://user:secret@hooks.example")
        #expect(lanes.lane(of: "no scheme at all") == "no scheme at all")
        #expect(lanes.lane(of: "") == "")
        #expect(lanes.lane(of: "mailto:") == "mailto:")
    }

    /// Workers on many threads at once, as the dispatcher's deliveries end: every item runs
    /// exactly once, and never more than the width at a time.
    @Test func manyWorkersAtOnceRunEachItemOnceAndNeverMoreThanTheWidth() async {
        let lanes = DeliveryLanes<Int>(width: 4)
        let state = NIOLockedValueBox((running: 0, most: 0, ran: [Int]()))
        @Sendable func work(from first: Int) async {
            var current = first
            while true {
                state.withLockedValue {
                    $0.running += 1
                    $0.most = max($0.most, $0.running)
                    $0.ran.append(current)
                }
                await Task.yield()
                state.withLockedValue { $0.running -= 1 }
                guard let next = lanes.next(in: "lane") else { return }
                current = next
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for item in 0..<2_000 where lanes.admit(item, lane: "lane", tenant: "t\(item % 3)") {
                group.addTask { await work(from: item) }
            }
        }
        let final = state.withLockedValue { $0 }
        #expect(final.ran.sorted() == Array(0..<2_000))
        #expect(final.most <= 4 && final.most >= 1)
        #expect(lanes.counts("lane") == (0, 0))
    }
}
