import Foundation
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// An event-stream reader that stops reading and then drains, on real sockets: it is owed what
/// a protocol subscriber is (`SlowConsumerPolicy`): each schedule's newest on-duty event, then a
/// `resync` for the roster change it missed.
@Suite(.timeLimit(.minutes(10))) struct WebStreamDrainTests {
    @Test func aStreamThatDrainsGetsEachSchedulesLatestEventAndAResync() async throws {
        try await HTTPTests.withHTTPServer(configure: {
            $0.limits.httpIdleTimeout = .seconds(120)
            $0.limits.httpSendBufferBytes = 4_096
            $0.limits.outboundHighWaterMark = 8_192
            $0.limits.outboundLowWaterMark = 2_048
        }) { harness, _ in
            let (team, healthy, paused) = try await StreamRig.start(harness)
            let reader = healthy.drain()
            let greeted = await eventually(10) { reader.count("event: hello") == 1 }
            #expect(greeted)
            // 800 events: far more than the paused stream's buffers.
            await StreamRig.handOff(hours: 40, harness, pacedBy: reader)
            #expect(reader.count("event: onduty") == 800)
            // A roster change while the paused stream cannot take it.
            _ = try await team.admin.addEmployee("Late", "Comer")
            let told = await eventually(20) { reader.count("event: roster") == 1 }
            #expect(told)
            // It reads again: what its buffers held, then the owed events, and it stays open.
            let drained = await paused.receiveAll(within: 8)
            #expect(!drained.closed)
            let events = drained.text.components(separatedBy: "\n\n").filter { $0.hasPrefix("event: ") }
            let owed = events.suffix(21)
            #expect(owed.last == "event: resync\ndata: {}", "\(owed.last ?? "")")
            // Held back, one per schedule, written in the schedules' order when it drained (what
            // its buffers held before ends wherever the stall began, mid-hour).
            let held = Array(owed.dropLast())
            #expect(held.allSatisfy { $0.hasPrefix("event: onduty\n") } && Set(held).count == 20, "\(held)")
            #expect(held == held.sorted(), "\(held)")
            #expect(events.filter { $0.hasPrefix("event: resync") }.count == 1)
            #expect(!events.contains { $0.hasPrefix("event: roster") }, "the missed roster change comes as the resync")
            reader.stop()
        }
    }
}

/// Twenty schedules handing off every hour and two event-stream readers: a healthy one, and one
/// whose kernel buffer holds almost nothing and that does not read (yet).
enum StreamRig {
    static func start(_ harness: ServerHarness) async throws -> (
        team: ScheduleServerTests.Team, healthy: HostileSocket, stalled: HostileSocket
    ) {
        let port = try #require(harness.server.httpPort)
        let hourly = Roster_V1_Cadence.with {
            $0.unit = .hours; $0.count = 1
        }
        let team = try await ScheduleServerTests.team(harness, zone: "UTC", every: hourly, handoff: "2025-12-31T00:00")
        for index in 1..<20 {
            _ = try await ScheduleServerTests.schedule(
                "Schedule \(index)", team.admin, zone: "UTC", every: hourly, handoff: "2025-12-31T00:00")
        }
        try await team.admin.barrier()
        let healthy = try HostileSocket(port: port, receiveBufferBytes: 1 << 20)
        let stalled = try HostileSocket(port: port, receiveBufferBytes: 1_024)
        let request = Array("GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        healthy.send(request)
        stalled.send(request)
        return (team, healthy, stalled)
    }

    /// One hour at a time, each hour's twenty events seen by the healthy reader before the next
    /// (the server reports the on-duty set as it is when it looks, not every hour a clock
    /// jumped over).
    static func handOff(hours: Int, _ harness: ServerHarness, pacedBy reader: SocketDrain) async {
        for hour in 1...hours {
            harness.clock.advance(to: t0 + Int64(hour) * 60 * minute)
            let expected = 20 * hour
            let arrived = await eventually(20) { reader.count("event: onduty") >= expected }
            if !arrived { return }
        }
    }
}
