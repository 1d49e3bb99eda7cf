import Foundation
import RosterDomain
@testable import RosterServerCore
import RosterTestSupport
import Testing

/// The one slow-consumer rule, without a socket: what the protocol connection and the event
/// stream do with a push while their connection cannot take more, and once it drains.
@Suite(.timeLimit(.minutes(10))) struct SlowConsumerPolicyTests {
    @Test func onDutyIsHeldRosterIsOwedAResyncAndProgressWaits() {
        var policy = SlowConsumerPolicy()
        #expect(policy.push(.onDuty, to: 1, writable: true) == .write)
        #expect(policy.push(.roster, to: 1, writable: true) == .write)
        // Not writable: the newest on-duty frame is kept, a roster change is owed as a resync.
        #expect(policy.push(.onDuty, to: 1, writable: false) == .coalesce)
        #expect(policy.push(.roster, to: 1, writable: false) == .resyncWhenDrained)
        #expect(policy.push(.onDuty, to: 2, writable: false) == .coalesce)
        // Until the resync, nothing more of that roster stream, nor progress; on-duty goes on.
        #expect(policy.push(.roster, to: 1, writable: true) == .drop)
        #expect(policy.push(.notice, to: 1, writable: true) == .drop)
        #expect(policy.push(.progress, to: 1, writable: true) == .drop)
        #expect(policy.push(.progress, to: 2, writable: true) == .write)
        #expect(policy.push(.progress, to: 2, writable: false) == .drop)
        let drained = policy.drained()
        #expect(drained.flushCoalesced == [1, 2] && drained.resync == [1])
        // Drained, everything starts afresh.
        #expect(policy.push(.roster, to: 1, writable: true) == .write)
        #expect(policy.drained().flushCoalesced.isEmpty)
    }

    @Test func anEndedSubscriptionOwesNothing() {
        var policy = SlowConsumerPolicy()
        _ = policy.push(.roster, to: 7, writable: false)
        _ = policy.push(.onDuty, to: 7, writable: false)
        policy.forget(7)
        let drained = policy.drained()
        #expect(drained.flushCoalesced.isEmpty && drained.resync.isEmpty)
    }
}
