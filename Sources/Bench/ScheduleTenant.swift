import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

/// A tenant with many schedules: how long an admin change to one of them takes to be
/// acknowledged (committed durably, its schedule resolved again), against a roster-server process.
package struct ScheduleTenantBenchmark {
    package var schedules: Int
    package var changes: Int
    package var serverExecutable: URL

    package init(schedules: Int, changes: Int, serverExecutable: URL) {
        self.schedules = schedules
        self.changes = changes
        self.serverExecutable = serverExecutable
    }

    package struct Result {
        package var setupSeconds: Double
        /// Adding or deleting an override on one schedule, round trip at the admin.
        package var ack: LatencySummary
        package var residentBytes: Int
    }

    package func run() async throws -> Result {
        let port = freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "roster-bench-\(UUID().uuidString)"
        ).path
        let server = try ChildProcess(
            executable: serverExecutable,
            arguments: [
                "serve", "--listen", "127.0.0.1:\(port)", "--http-listen", "127.0.0.1:0", "--data-dir", directory,
                "--log-level", "warning",
                "--ping-interval-ms", "3600000", "--progress-interval-ms", "3600000", "--shutdown-grace-ms", "0",
            ])
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
        try waitForListener(port: port)
        let admin = try await RosterConnection.connect(
            host: "127.0.0.1", port: port,
            hello: .with { $0.token = (try? adminToken(dataDirectory: directory)) ?? "" })
        func edit(_ request: Roster_V1_EditScheduleRequest) async throws -> Roster_V1_MutationResult {
            guard case .mutationResult(let result) = try await admin.request(.editSchedule(request)) else {
                throw BenchError("no MutationResult")
            }
            return result
        }
        let setup = nanos()
        var people: [String] = []
        for index in 0..<50 {
            guard
                case .mutationResult(let added) = try await admin.request(
                    .upsertEmployee(
                        .with {
                            $0.employee = .with {
                                $0.firstName = "Person"; $0.lastName = "\(index)"
                            }
                        }))
            else { throw BenchError("no MutationResult") }
            people.append(added.ids[0])
        }
        // Weekly rotations of five, half of them restricted to business hours, in several zones.
        let zones = ["Europe/Berlin", "America/Chicago", "Asia/Tokyo", "UTC"]
        for index in 0..<schedules {
            _ = try await edit(
                .with {
                    $0.upsertSchedule = .with {
                        $0.name = "Schedule \(index)"; $0.zone = zones[index % zones.count]
                    }
                })
            _ = try await edit(
                .with {
                    $0.schedule = "Schedule \(index)"
                    $0.upsertRotation = .with {
                        $0.rotation = .with {
                            $0.cadence = .with {
                                $0.unit = .weeks; $0.count = 1
                            }
                            $0.handoff = "2026-01-05T09:00"
                            $0.slots = (0..<5).map { offset in
                                .with { $0.employeeIds = [people[(index + offset) % people.count]] }
                            }
                            if index % 2 == 0 {
                                $0.restrictions = [
                                    .with {
                                        $0.weekdays = [2, 3, 4, 5, 6]; $0.startMinute = 540; $0.endMinute = 1020
                                    }
                                ]
                            }
                        }
                    }
                })
        }
        let setupSeconds = Double(nanos() - setup) / 1e9
        var samples: [UInt64] = []
        let now = UnixMillis.now
        var overrideID = ""
        for change in 0..<changes {
            let target = "Schedule \(schedules / 2)"
            let start = nanos()
            if change % 2 == 0 {
                let added = try await edit(
                    .with {
                        $0.schedule = target
                        $0.addOverride = .with {
                            $0.kind = .add; $0.employeeID = people[0]; $0.startMs = now + 3_600_000;
                            $0.endMs = now + 7_200_000
                        }
                    })
                overrideID = added.ids.last ?? ""
            } else {
                _ = try await edit(
                    .with {
                        $0.schedule = target; $0.deleteOverride = overrideID
                    })
            }
            samples.append(nanos() - start)
        }
        let resident = residentBytes(pid: server.pid)
        await admin.close()
        return Result(setupSeconds: setupSeconds, ack: LatencySummary(samples), residentBytes: resident)
    }
}
