import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import Testing

/// The client's sync rules (docs/PROTOCOL.md §7) as plain values: no socket, no server.
@Suite(.timeLimit(.minutes(10))) struct SubscriptionSyncTests {
    let tenant = Roster_V1_Tenant.with {
        $0.id = "demo"; $0.name = "Demo"
    }

    func snapshot(epoch: UInt64 = 7, revision: UInt64) -> RosterMessage {
        .snapshot(
            .with {
                $0.epoch = epoch; $0.revision = revision; $0.tenant = tenant
            })
    }

    func changed(epoch: UInt64 = 7, _ revision: UInt64, motd: String = "m") -> RosterMessage {
        .rosterChanged(
            .with {
                $0.epoch = epoch
                $0.revision = revision
                $0.changes = [.with { $0.motdSet = motd }]
            })
    }

    func onDuty(_ sequence: UInt64, cause: Roster_V1_OnDutyCause = .boundary) -> RosterMessage {
        .onDutyChanged(
            .with {
                $0.sequence = sequence; $0.cause = cause; $0.epoch = 7
            })
    }

    func at(_ requestID: UInt32, _ message: RosterMessage) -> InboundMessage {
        InboundMessage(requestID: requestID, message: message)
    }

    /// The Subscribe an action list asks for, if any.
    func subscribeRequest(_ actions: [SubscriptionSync.Action]) -> Roster_V1_SubscribeRequest? {
        for action in actions { if case .subscribe(let request) = action { return request } }
        return nil
    }

    func names(_ actions: [SubscriptionSync.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .subscribe(let request):
                return request.hasSinceRevision ? "subscribe since \(request.sinceRevision)" : "subscribe"
            case .unsubscribe(let id): return "unsubscribe \(id)"
            case .saveCache: return "save"
            case .emit(let update):
                switch update {
                case .synced(let roster): return "synced \(roster.revision)"
                case .rosterChanged(let revision, _): return "changed \(revision)"
                case .onDutyChanged: return "onDuty"
                case .resyncing: return "resyncing"
                case .goingAway: return "goingAway"
                default: return "other"
                }
            case .live: return "live"
            case .delayReconnect(let delay): return "delay \(delay)"
            case .fail: return "fail"
            }
        }
    }

    /// A sync that subscribed with request id 1 and took a snapshot at `revision`.
    func synced(at revision: UInt64) -> SubscriptionSync {
        var sync = SubscriptionSync(roster: nil)
        _ = sync.connected(serverID: "srv-1")
        sync.subscribing(requestID: 1)
        _ = sync.receive(
            at(
                1,
                .subscribed(
                    .with {
                        $0.subscriptionID = 1; $0.epoch = 7; $0.revision = revision
                    })))
        _ = sync.receive(at(1, snapshot(revision: revision)))
        _ = sync.receive(
            at(
                1,
                .synced(
                    .with {
                        $0.subscriptionID = 1; $0.revision = revision
                    })))
        return sync
    }

    @Test func withoutACopyItAsksForASnapshotAndWithOneItResumes() {
        var fresh = SubscriptionSync(roster: nil)
        #expect(names(fresh.connected(serverID: "a")) == ["subscribe"])
        var resuming = SubscriptionSync(
            roster: CachedRoster(
                state: RosterState(tenant: Tenant(id: "demo", name: "")), epoch: 7,
                revision: 40, syncedAt: Date()))
        let request = subscribeRequest(resuming.connected(serverID: "a"))
        #expect(request?.sinceRevision == 40 && request?.epoch == 7)
    }

    @Test func theCopyIsWholeAtSyncedAndSavedThen() {
        var sync = SubscriptionSync(roster: nil)
        _ = sync.connected(serverID: "a")
        sync.subscribing(requestID: 1)
        #expect(sync.receive(at(1, snapshot(revision: 5))).isEmpty)
        #expect(!sync.isSynced)
        #expect(names(sync.receive(at(1, .synced(.with { $0.revision = 5 })))) == ["save", "synced 5", "live"])
        #expect(sync.isSynced && sync.roster?.revision == 5)
    }

    @Test func eachRevisionIsAppliedOnceAndAGapResyncs() {
        var sync = synced(at: 5)
        #expect(names(sync.receive(at(0, changed(6)))) == ["save", "changed 6"])
        #expect(sync.receive(at(0, changed(6))).isEmpty, "a repeat is dropped")
        #expect(sync.receive(at(0, changed(3))).isEmpty, "an old one too")
        #expect(names(sync.receive(at(0, changed(8)))) == ["resyncing", "subscribe"], "7 is missing")
        #expect(sync.roster?.revision == 6)
    }

    @Test func anotherEpochResyncs() {
        var sync = synced(at: 5)
        #expect(names(sync.receive(at(0, changed(epoch: 8, 6)))) == ["resyncing", "subscribe"])
    }

    @Test func aReplacedSubscriptionsLateSyncedIsIgnoredAndItIsUnsubscribed() {
        var sync = synced(at: 5)
        _ = sync.receive(at(0, changed(8)))  // a gap: resync with a new Subscribe
        sync.subscribing(requestID: 2)
        #expect(sync.receive(at(1, .synced(.with { $0.revision = 5 }))).isEmpty, "the old subscription's marker")
        #expect(!sync.isSynced)
        #expect(names(sync.receive(at(2, .subscribed(.with { $0.subscriptionID = 2 })))) == ["unsubscribe 1"])
        #expect(sync.receive(at(1, snapshot(revision: 3))).isEmpty && sync.roster?.revision == 5, "nor its snapshot")
        _ = sync.receive(at(2, snapshot(revision: 9)))
        #expect(names(sync.receive(at(2, .synced(.with { $0.revision = 9 })))) == ["save", "synced 9", "live"])
    }

    @Test func resyncRequiredResumesASlowSubscriptionAndResyncsALostHistory() {
        var sync = synced(at: 5)
        let slow = sync.receive(
            at(
                0,
                .error(
                    .with {
                        $0.code = .resyncRequired; $0.subscriptionID = 1
                    })))
        #expect(names(slow) == ["subscribe since 5"])
        sync.subscribing(requestID: 2)
        let gone = sync.receive(
            at(
                2,
                .error(
                    .with {
                        $0.code = .resyncRequired; $0.oldestRevision = 90
                    })))
        #expect(names(gone) == ["resyncing", "subscribe"])
    }

    @Test func aBookmarkAheadOfTheCopyResyncs() {
        var sync = synced(at: 5)
        #expect(
            sync.receive(
                at(
                    0,
                    .progress(
                        .with {
                            $0.epoch = 7; $0.revision = 5
                        }))
            ).isEmpty)
        #expect(
            names(
                sync.receive(
                    at(
                        0,
                        .progress(
                            .with {
                                $0.epoch = 7; $0.revision = 6
                            })))) == ["resyncing", "subscribe"])
    }

    @Test func onDutyIsAppliedOncePerServerProcess() {
        var sync = synced(at: 5)
        #expect(names(sync.receive(at(1, onDuty(3, cause: .initial)))) == ["onDuty"])
        #expect(names(sync.receive(at(0, onDuty(4)))) == ["onDuty"])
        #expect(sync.onDuty?.cause == .boundary)
        #expect(sync.receive(at(0, onDuty(4))).isEmpty, "seen already")
        #expect(names(sync.receive(at(0, onDuty(3, cause: .initial)))) == ["onDuty"], "INITIAL always applies")
        _ = sync.connected(serverID: "srv-2")  // a restarted server counts from 1 again
        #expect(names(sync.receive(at(0, onDuty(1)))) == ["onDuty"])
    }

    @Test func refusalsStopWithTheReasonAndGoingAwayDelaysTheReconnect() {
        var sync = synced(at: 5)
        #expect(
            names(
                sync.receive(
                    at(
                        0,
                        .error(
                            .with {
                                $0.code = .unauthenticated; $0.message = "the token was revoked"
                            }))))
                == ["fail"])
        #expect(sync.receive(at(0, .error(.with { $0.code = .unavailable }))).isEmpty, "not for good: ignored")
        #expect(
            names(sync.receive(at(0, .goingAway(.with { $0.retryAfterMs = 2_500 })))) == [
                "delay 2.5 seconds", "goingAway",
            ])
    }

    @Test func aLateQueryAnswerNeverOverwritesANewerCopy() {
        var sync = synced(at: 5)
        _ = sync.receive(at(0, changed(6)))
        let old = CachedRoster(
            state: RosterState(tenant: Tenant(id: "demo", name: "")), epoch: 7, revision: 4, syncedAt: Date())
        #expect(sync.fetched(old).revision == 6)
        let otherEpoch = CachedRoster(state: old.state, epoch: 8, revision: 1, syncedAt: Date())
        #expect(sync.fetched(otherEpoch).revision == 1, "another epoch replaces the copy")
    }
}
