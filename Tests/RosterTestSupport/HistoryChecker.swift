import NIOConcurrencyHelpers
import RosterClient

/// Checks one client's stream of updates, in the spirit of etcd's watch validation:
/// - revisions applied one at a time are ordered and unique (each exactly one more than the last);
/// - the revision never jumps without a resync (a snapshot after `.resyncing`, or the first sync);
/// - it never goes back.
/// Violations are collected as sentences; an empty list means the history was sound.
public final class HistoryChecker: Sendable {
    private struct State {
        var current: UInt64?
        var resyncPending = true  // the first sync is a snapshot
        var applied = 0
        var resyncs = 0
        var disconnects = 0
        var wasLive = false
        var violations: [String] = []
    }
    private let state = NIOLockedValueBox(State())
    public let name: String

    public init(name: String) { self.name = name }

    public func observe(_ update: RosterUpdate) {
        state.withLockedValue { state in
            switch update {
            case .resyncing:
                state.resyncPending = true
                state.resyncs += 1
            case .synced(let roster):
                if let current = state.current {
                    if roster.revision < current {
                        state.violations.append("\(name): synced at \(roster.revision) after applying \(current)")
                    } else if roster.revision > current && !state.resyncPending {
                        state.violations.append("\(name): jumped \(current) → \(roster.revision) without a resync")
                    }
                }
                state.current = roster.revision
                state.resyncPending = false
            case .connectionState(let connection):
                if connection == .live {
                    state.wasLive = true
                } else if case .reconnecting = connection, state.wasLive {
                    state.wasLive = false
                    state.disconnects += 1
                }
            case .rosterChanged(let revision, _):
                if let current = state.current, revision != current + 1 {
                    state.violations.append("\(name): applied \(revision) after \(current)")
                }
                state.current = revision
                state.applied += 1
            default:
                break
            }
        }
    }

    public var violations: [String] { state.withLockedValue { $0.violations } }
    public var revision: UInt64? { state.withLockedValue { $0.current } }
    public var applied: Int { state.withLockedValue { $0.applied } }
    public var resyncs: Int { state.withLockedValue { $0.resyncs } }
    /// Live connections lost.
    public var disconnects: Int { state.withLockedValue { $0.disconnects } }
}
