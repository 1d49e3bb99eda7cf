import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// The checker itself: it must catch what it is there to catch.
@Suite(.timeLimit(.minutes(10))) struct HistoryCheckerTests {
    static func roster(_ revision: UInt64) -> CachedRoster {
        CachedRoster(
            state: RosterState(tenant: Tenant(id: "demo", name: "Demo")), epoch: 1, revision: revision, syncedAt: Date()
        )
    }

    @Test func aSoundHistoryPasses() {
        let checker = HistoryChecker(name: "c")
        for update: RosterUpdate in [
            .synced(Self.roster(5)), .rosterChanged(revision: 6, changes: []),
            .rosterChanged(revision: 7, changes: []), .synced(Self.roster(7)),
            .resyncing(reason: "gone"), .synced(Self.roster(40)), .rosterChanged(revision: 41, changes: []),
        ] {
            checker.observe(update)
        }
        #expect(checker.violations.isEmpty)
        #expect(checker.revision == 41 && checker.applied == 3 && checker.resyncs == 1)
    }

    @Test func duplicatesGapsAndGoingBackAreCaught() {
        let checker = HistoryChecker(name: "c")
        for update: RosterUpdate in [
            .synced(Self.roster(5)), .rosterChanged(revision: 6, changes: []),
            .rosterChanged(revision: 6, changes: []),  // twice
            .rosterChanged(revision: 9, changes: []),  // gap
            .synced(Self.roster(12)),  // jump without resync
            .synced(Self.roster(3)),
        ] {  // back
            checker.observe(update)
        }
        #expect(checker.violations.count == 4, "\(checker.violations)")
    }
}
