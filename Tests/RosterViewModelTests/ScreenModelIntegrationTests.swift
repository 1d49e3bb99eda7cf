import Foundation
import RosterClient
import RosterDomain
import RosterTestSupport
import RosterViewModels
import Testing

/// The screen model on the real RosterClient against a real server on port 0.
@MainActor @Suite(.timeLimit(.minutes(10))) struct ScreenModelIntegrationTests {
    @Test func followsARealServerAndSaysNoConnectionWhenItStops() async throws {
        let servers = ServerSlot(
            try await ServerHarness.start(now: RosterTestSupport.t0 + 10 * RosterTestSupport.minute))
        try await using(servers) { servers in
            let harness = servers.harness
            let admin = try await harness.connect()
            let adaID = try await admin.addEmployee("Ada", "Lovelace", position: "Engineer", team: "Core")
            try await admin.addShift(adaID, RosterTestSupport.t0, RosterTestSupport.t0 + 60 * RosterTestSupport.minute)
            var configuration = RosterClientConfiguration(host: "127.0.0.1", port: harness.port)
            configuration.cacheDirectory = TestScratch.directory("roster-viewmodel")
            configuration.reconnect.baseDelay = .milliseconds(20)
            configuration.reconnect.maxDelay = .milliseconds(100)
            let model = RosterScreenModel(
                source: RosterClient(configuration: configuration), clock: { harness.clock.now() })
            let running = Task { await model.run() }
            #expect(await eventually { model.state == .loaded })
            #expect(model.onDuty.first?.status.current.map(\.employee.firstName) == ["Ada"])

            _ = try await admin.addEmployee("Grace", "Hopper", position: "Engineer", team: "Edge")
            #expect(
                await eventually { model.sections.first?.employees.map(\.firstName) == ["Grace", "Ada"] },
                "a change pushed by the server reaches the screen")
            await admin.close()

            await servers.stop()
            #expect(await eventually { if case .offline = model.state { true } else { false } })
            #expect(model.message()?.hasPrefix("No connection — showing data from") == true)
            #expect(model.sections.first?.employees.count == 2, "the data stays")
            running.cancel()
            await running.value
        }
    }
}
