import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// The library's schedules: the server's answers and the cache's offline answers are the same.
@Suite(.timeLimit(.minutes(10))) struct ScheduleClientTests {
    @Test func offlineAnswersEqualTheServersAtEveryInstantAsked() async throws {
        try await using(try await ServerHarness.start(now: t0)) { harness in
            let admin = try await harness.connect(token: harness.adminToken)
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            let alan = try await admin.addEmployee("Alan", "Turing")
            let grace = try await admin.addEmployee("Grace", "Hopper")
            try await admin.addShift(grace, t0 + 30 * minute, t0 + 90 * minute)  // on the default schedule
            try await admin.admin(
                .editSchedule(
                    .with {
                        $0.upsertSchedule = .with {
                            $0.name = "Berlin"; $0.zone = "Europe/Berlin"
                        }
                    }))
            // Daily handoffs at 09:00 Berlin with a layer of weekday business hours above, and an override.
            try await admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Berlin"
                        $0.upsertRotation = .with {
                            $0.rotation = .with {
                                $0.cadence = .with {
                                    $0.unit = .days; $0.count = 1
                                }
                                $0.handoff = "2025-12-29T09:00"
                                $0.slots = [.with { $0.employeeIds = [ada] }, .with { $0.employeeIds = [alan] }]
                            }
                        }
                    }))
            try await admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Berlin"
                        $0.upsertRotation = .with {
                            $0.level = 1
                            $0.rotation = .with {
                                $0.cadence = .with {
                                    $0.unit = .weeks; $0.count = 1
                                }
                                $0.handoff = "2025-12-29T09:00"
                                $0.slots = [.with { $0.employeeIds = [grace] }]
                                $0.restrictions = [
                                    .with {
                                        $0.weekdays = [2, 3, 4, 5, 6]; $0.startMinute = 600; $0.endMinute = 960
                                    }
                                ]
                            }
                        }
                    }))
            try await admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Berlin"
                        $0.addOverride = .with {
                            $0.kind = .remove; $0.employeeID = ada; $0.startMs = t0 + 20 * 60 * minute;
                            $0.endMs = t0 + 30 * 60 * minute
                        }
                    }))

            var configuration = RosterClientConfiguration(host: "127.0.0.1", port: harness.port)
            configuration.cacheDirectory = TestScratch.directory("roster-client-schedules")
            configuration.allSchedules = true
            try await using(RosterClient(configuration: configuration)) { client in
                let reader = UpdateReader(client)
                await client.start()
                try await reader.until(isSynced)
                try #require(await client.onDutyBySchedule.count == 2, "pushed states of both schedules")
                let roster = try #require(await client.roster)
                #expect(roster.state.schedules.count == 2)
                // Every three hours for three weeks: who, until when, and who next agree.
                for step in 0..<(21 * 8) {
                    let at = t0 + UnixMillis(step) * 180 * minute + 7 * minute
                    for schedule in ["Berlin", "default"] {
                        let online = try await client.onDuty(at: at, schedule: schedule)
                        let offline = try #require(roster.onDuty(schedule: schedule, at: at))
                        #expect(
                            online.current.map(\.employee.id) == offline.current.map(\.employee.id),
                            "\(schedule) at \(at)")
                        #expect(
                            online.until == offline.until
                                && online.next.map(\.employee.id) == offline.next.map(\.employee.id),
                            "\(schedule) at \(at)")
                        #expect(online.current.map(\.shift) == offline.current.map(\.shift))
                    }
                }
                let query = FinalScheduleQuery(from: t0, to: t0 + 21 * 24 * 60 * minute)
                #expect(try await client.finalSchedule(query) == (try roster.finalSchedule(query)))
                #expect(
                    try await client.nextOnDuty(employee: "Grace Hopper", at: t0)
                        == (try roster.nextOnDuty(employee: "Grace Hopper", schedule: nil, at: t0)))
            }
            await admin.close()
        }
    }
}
