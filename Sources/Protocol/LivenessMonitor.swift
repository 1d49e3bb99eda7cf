import NIOCore

/// The liveness rule both ends follow (docs/PROTOCOL.md, section 9), decided on receive
/// idleness: after one interval with nothing received, send a Ping; after 1.5 intervals, close,
/// but only once a Ping has gone unanswered for half an interval, so a check that runs late on a
/// loaded machine never closes a peer that was not asked first.
public struct LivenessMonitor: Sendable {
    public enum Action: Equatable, Sendable {
        case none
        case ping
        case close(quietMillis: Int64)
    }

    public let intervalMillis: Int64
    private var lastReceived: NIODeadline
    private var pingSentAt: NIODeadline?

    public init(intervalMillis: Int64, now: NIODeadline = .now()) {
        self.intervalMillis = intervalMillis
        lastReceived = now
    }

    /// Anything arrived from the peer.
    public mutating func received(at now: NIODeadline = .now()) {
        lastReceived = now
    }

    /// Called every half interval: what to do now. `.ping` records the Ping as sent.
    public mutating func check(now: NIODeadline = .now()) -> Action {
        let quiet = (now - lastReceived).nanoseconds / 1_000_000
        let unanswered = pingSentAt.map { $0 > lastReceived } ?? false
        if unanswered, let pinged = pingSentAt, quiet >= intervalMillis * 3 / 2,
            (now - pinged).nanoseconds / 1_000_000 >= intervalMillis / 2
        {
            return .close(quietMillis: quiet)
        }
        if quiet >= intervalMillis, !unanswered {
            pingSentAt = now
            return .ping
        }
        return .none
    }
}
