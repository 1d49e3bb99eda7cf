import NIOCore
import RosterProtocol
import Testing

@Suite(.timeLimit(.minutes(10))) struct LivenessMonitorTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    func at(_ millis: Int64) -> NIODeadline { start + .milliseconds(millis) }

    @Test func pingsAfterOneQuietIntervalThenClosesAfterOneAndAHalf() {
        var monitor = LivenessMonitor(intervalMillis: 1000, now: start)
        #expect(monitor.check(now: at(500)) == .none)
        #expect(monitor.check(now: at(1000)) == .ping)
        #expect(monitor.check(now: at(1200)) == .none, "one Ping per silence")
        #expect(monitor.check(now: at(1500)) == .close(quietMillis: 1500))
    }

    @Test func anythingReceivedResetsTheSilence() {
        var monitor = LivenessMonitor(intervalMillis: 1000, now: start)
        #expect(monitor.check(now: at(1000)) == .ping)
        monitor.received(at: at(1100))  // the Pong
        #expect(monitor.check(now: at(1600)) == .none)
        #expect(monitor.check(now: at(2100)) == .ping, "a new silence gets a new Ping")
    }

    @Test func aLateCheckPingsBeforeItEverCloses() {
        var monitor = LivenessMonitor(intervalMillis: 1000, now: start)
        #expect(monitor.check(now: at(5000)) == .ping, "quiet for 5 intervals, but never asked: ping first")
        #expect(monitor.check(now: at(5200)) == .none, "the Ping gets half an interval to be answered")
        #expect(monitor.check(now: at(5500)) == .close(quietMillis: 5500))
    }
}
