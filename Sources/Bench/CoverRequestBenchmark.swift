import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer

/// Cover requests against a roster-server process (issue #34): an admin asks for cover on a
/// person's behalf, two people take it at the same instant, the requester cancels. Each step is
/// one revision: planned on the work pool, committed to the store, published. Measures each
/// step's latency as the client sees it, the server CPU per round, and that every race had
/// exactly one taker.
package struct CoverRequestBenchmark {
    package var rounds: Int
    package var serverExecutable: URL

    package init(rounds: Int, serverExecutable: URL) {
        (self.rounds, self.serverExecutable) = (rounds, serverExecutable)
    }

    package struct Result {
        package var open, take, refusal, cancel: LatencySummary
        /// Rounds where exactly one of the two takers got the request.
        package var oneTaker: Int
        package var cpuMillisPerRound: Double
    }

    package func run() async throws -> Result {
        let bench = try await BenchServer.start(serverExecutable)
        defer { bench.kill() }
        let (server, directory, port, admin) = (bench.process, bench.directory, bench.port, bench.admin)
        for (first, last) in [("Grace", "Hopper"), ("Ada", "Lovelace"), ("Alan", "Turing")] {
            try await Self.change(
                admin,
                .upsertEmployee(
                    .with {
                        $0.employee = .with {
                            $0.firstName = first; $0.lastName = last
                        }
                    }))
        }
        // Grace is on duty around the clock; anyone with a person may take part.
        try await Self.change(
            admin,
            .editSchedule(
                .with {
                    $0.upsertSchedule = .with {
                        $0.name = "Cover"; $0.zone = "UTC"; $0.readersMayVolunteer = true
                    }
                }))
        try await Self.change(
            admin,
            .editSchedule(
                .with {
                    $0.schedule = "Cover"
                    $0.upsertRotation = .with {
                        $0.rotation = .with {
                            $0.cadence = .with {
                                $0.unit = .weeks; $0.count = 1
                            }
                            $0.handoff = "2026-01-05T09:00"
                            $0.slots = [.with { $0.employeeIds = ["Grace Hopper"] }]
                        }
                    }
                }))
        let administration = try await StoreAdministration.open(dataDirectory: directory)
        let tenant = admin.welcome.tenant.id
        var takers: [RosterConnection] = []
        for person in ["Ada Lovelace", "Alan Turing"] {
            let token = try await administration.createToken(
                tenant: tenant, role: .reader, expiresIn: nil, employee: person
            ).text
            var connected: RosterConnection?
            for _ in 0..<100 where connected == nil {
                connected = try? await RosterConnection.connect(
                    host: "127.0.0.1", port: port, hello: .with { $0.token = token })
                if connected == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            guard let connected else { throw BenchError("the server did not take the token for \(person)") }
            takers.append(connected)
        }
        await administration.close()

        var opens: [UInt64] = [], takes: [UInt64] = [], refusals: [UInt64] = [], cancels: [UInt64] = []
        var oneTaker = 0
        let day: Int64 = 86_400_000
        let base = (Int64(Date().timeIntervalSince1970 * 1000) / day + 2) * day
        let cpuBefore = cpuMillis(pid: server.pid)
        for round in 0..<rounds {
            // A stretch of its own each round, so that no override of an earlier round is in the way.
            let start = base + Int64(round % 60) * day + Int64(round / 60) * 3_600_000
            var began = nanos()
            let opened = try await Self.change(
                admin,
                .editSchedule(
                    .with {
                        $0.schedule = "Cover"
                        $0.coverRequest = .with {
                            $0.action = .open; $0.person = "Grace Hopper"; $0.startMs = start;
                            $0.endMs = start + 3_600_000
                        }
                    }))
            opens.append(nanos() - began)
            guard opened.ids.count > 1 else { throw BenchError("no request id in \(opened.ids)") }
            let id = opened.ids[1]
            let take = RosterMessage.editSchedule(
                .with {
                    $0.coverRequest = .with {
                        $0.action = .take; $0.requestID = id
                    }
                })
            let raced = nanos()
            async let first = Self.timed(takers[0], take, since: raced)
            async let second = Self.timed(takers[1], take, since: raced)
            let answers = await [first, second]
            let won = answers.filter(\.won)
            if won.count == 1 { oneTaker += 1 }
            for answer in answers {
                if answer.won { takes.append(answer.nanos) } else { refusals.append(answer.nanos) }
            }
            began = nanos()
            try await Self.change(
                admin,
                .editSchedule(
                    .with {
                        $0.coverRequest = .with {
                            $0.action = .cancel; $0.requestID = id; $0.person = "Grace Hopper"
                        }
                    }))
            cancels.append(nanos() - began)
        }
        let cpu = (cpuMillis(pid: server.pid) - cpuBefore) / Double(max(1, rounds))
        for connection in takers + [admin] { await connection.close() }
        return Result(
            open: LatencySummary(opens), take: LatencySummary(takes), refusal: LatencySummary(refusals),
            cancel: LatencySummary(cancels), oneTaker: oneTaker, cpuMillisPerRound: cpu)
    }

    @discardableResult
    static func change(_ connection: RosterConnection, _ message: RosterMessage) async throws
        -> Roster_V1_MutationResult
    {
        guard case .mutationResult(let result) = try await connection.request(message) else {
            throw BenchError("expected MutationResult for \(message.type)")
        }
        return result
    }

    static func timed(_ connection: RosterConnection, _ message: RosterMessage, since began: UInt64) async -> (
        won: Bool, nanos: UInt64
    ) {
        let won =
            (try? await connection.request(message)).map { if case .mutationResult = $0 { true } else { false } }
            ?? false
        return (won, nanos() - began)
    }
}
