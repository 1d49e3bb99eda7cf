import Foundation
import NIOCore
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTestSupport
import RosterTLS
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// One test per class of attack from issue #30, each against a real roster-server process on
/// loopback: while the attack runs, the admin of another tenant ("bystander") still has a change
/// acknowledged and a query answered within 15 s (far from what the attacks did before: 79 s,
/// 444 s, or never), the server stays up, and its resident memory grows by less than
/// `memoryBound`. The latency figures themselves come from `roster-bench attack`
/// (docs/RELIABILITY.md, "Limits and what happens at them"); here only behaviour is asserted.
///
/// One at a time, each attacked server with one work thread: the attacks load a core on
/// purpose, and the rest of the suite runs beside them.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileClientTests {
    /// What an attack may add to the server's resident memory (a debug build).
    static let memoryBound = 200 << 20

    /// A schedule whose year is 2,000 stretches (the most one answer carries): the heaviest
    /// answer a reader can ask for.
    static func addBusySchedule(port: Int, token: String) async throws {
        let admin = try await RosterConnection.connect(host: "127.0.0.1", port: port, hello: .with { $0.token = token })
        defer { Task { await admin.close() } }
        _ = try await admin.request(
            .editSchedule(
                .with {
                    $0.upsertSchedule = .with {
                        $0.name = "Busy"; $0.zone = "Europe/Berlin"
                    }
                }))
        _ = try await admin.request(
            .editSchedule(
                .with {
                    $0.schedule = "Busy"
                    $0.upsertRotation = .with {
                        $0.rotation = .with {
                            $0.cadence = .with {
                                $0.unit = .hours; $0.count = 1
                            }
                            $0.handoff = "2026-01-01T00:00"
                            $0.slots = ["Ada Lovelace", "Alan Turing", "Grace Hopper"].map { name in
                                .with { $0.employeeIds = [name] }
                            }
                        }
                    }
                }))
    }

    static func hello(token: String = "") -> RosterMessage {
        .hello(
            .with {
                $0.minVersion = WireProtocol.supportedVersions.lowerBound
                $0.maxVersion = WireProtocol.supportedVersions.upperBound
                $0.token = token
            })
    }

    static let yearOfBusy = RosterMessage.getFinalSchedule(
        .with {
            $0.schedule = "Busy"
            $0.fromMs = 1_767_225_600_000
            $0.toMs = 1_767_225_600_000 + 366 * 86_400_000
        })

    @Test func aDurationThatWouldOverflowIsATypedErrorAndTheServerStaysUp() async throws {
        try await HostileRig.with { rig in
            // Any reader, anonymous on loopback: the alarm that made DurationText overflow.
            let reader = try await RosterConnection.connect(host: "127.0.0.1", port: rig.server.port)
            do {
                _ = try await reader.request(
                    .getCalendar(
                        .with {
                            $0.schedule = "Default"; $0.alarm = "99999999999999999d"
                        }))
                Issue.record("the overflowing alarm was accepted")
            } catch let error as RosterClientError {
                #expect(error.code == .invalidArgument && "\(error)".contains("up to a week"), "\(error)")
            }
            // The same alarm on a feed URL (links are made with a token).
            let maker = try await RosterConnection.connect(
                host: "127.0.0.1", port: rig.server.port,
                hello: .with {
                    $0.token = rig.server.adminToken
                })
            let made = try await maker.request(
                .getCalendar(
                    .with {
                        $0.schedule = "Default"; $0.createToken = true
                    }))
            await maker.close()
            guard case .calendar(let calendar) = made else {
                throw TestFailure("expected a calendar, got \(made.type)")
            }
            let url = "http://127.0.0.1:\(calendar.httpPort)/v1/calendar/\(calendar.token).ics?alarm=99999999999999999d"
            #expect(try await HTTPGet.request(url).status == 400)
            await reader.close()
            #expect(rig.isAlive)
            try await rig.bystanderRoundTrip()
        }
    }

    @Test func aClientThatAsksAndNeverReadsHoldsBoundedMemoryAndIsClosed() async throws {
        try await HostileRig.with(arguments: ["--write-deadline-ms", "20000", "--work-threads", "1"]) { rig in
            try await Self.addBusySchedule(port: rig.server.port, token: rig.server.adminToken)
            let before = rig.residentBytes
            // 20,000 requests for a year of the busy schedule (about 200 KB of answer each), never
            // read: 600 KB of requests, far more answers (4 GB) than any buffer holds.
            // Encoded before connecting: on a loaded host this takes seconds, and a connection
            // silent that long after its Hello is (rightly) pinged and closed.
            var flood = ByteBuffer()
            for id in 2..<20_002 { flood.writeImmutableBuffer(Self.yearOfBusy.frame(requestID: UInt32(id)).encoded()) }
            let bytes = Array(flood.readableBytesView)
            let attacker = try HostileSocket(port: rig.server.port)
            attacker.send(Self.hello(), requestID: 1)
            // Sent until the server stops reading what it cannot answer: the rest then waits in
            // its socket (until the write deadline closes it).
            var sent = 0, unread = 0
            let started = ContinuousClock.now
            while sent < bytes.count, unread == 0, ContinuousClock.now - started < .seconds(15) {
                sent += attacker.send(Array(bytes[sent...]))
                try await Task.sleep(for: .milliseconds(100))
                unread = attacker.unreadByServer(serverPort: rig.server.port)
            }
            #expect(
                unread > 0,
                """
                the server kept reading a client that does not read (\(sent) bytes sent, last send errno \(attacker.lastSendError), \
                connection: \(attacker.connectionRows(serverPort: rig.server.port).rows), server alive: \(rig.isAlive))
                """)
            #expect(attacker.serverEndIsOpen(serverPort: rig.server.port), "open until its write deadline")
            try await rig.bystanderRoundTrip()
            #expect(
                rig.residentBytes - before < Self.memoryBound,
                "resident memory grew by \((rig.residentBytes - before) >> 20) MB")
            // Its writes stall, so it is closed at the write deadline; then the server is idle
            // again (the queries it read are not all worked out for nobody).
            // Seen from either end: this one may never take the server's reset (its window is shut).
            #expect(
                await eventually(40) {
                    attacker.serverHasClosed || !attacker.serverEndIsOpen(serverPort: rig.server.port)
                }, "the non-reading client was never closed")
            let cpu = rig.cpuSeconds
            try await Task.sleep(for: .seconds(3))
            #expect(rig.cpuSeconds - cpu < 1.5, "the server kept working after the client was gone")
            #expect(rig.isAlive)
            try await rig.bystanderRoundTrip()
        }
    }

    @Test func halfOpenTLSHandshakesAreClosedAndRealClientsGetIn() async throws {
        try await HostileRig.with(arguments: [
            "--tls", "--max-connections", "40", "--hello-timeout-ms", "500",
            "--http-header-timeout-ms", "500",
        ]) { rig in
            let before = rig.residentBytes
            // A ClientHello's record header and a few bytes of it, then nothing: more of them than
            // the connection limit, on both listeners.
            let truncated: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]
            var halfOpen: [HostileSocket] = []
            for _ in 0..<60 {
                guard let socket = try? HostileSocket(port: rig.server.port) else { continue }
                socket.send(truncated)
                halfOpen.append(socket)
            }
            let http = try #require(rig.server.httpPort)
            let httpHalfOpen = try (0..<10).map { _ in try HostileSocket(port: http) }
            for socket in httpHalfOpen { socket.send(truncated) }
            // Each is closed at its deadline, so a real TLS client gets in.
            #expect(await eventually(20) { (try? await rig.bystanderRoundTrip()) != nil })
            #expect(
                await eventually(20) { halfOpen.allSatisfy(\.serverHasClosed) },
                "a half-open TLS connection stayed open")
            #expect(
                await eventually(20) { httpHalfOpen.allSatisfy(\.serverHasClosed) },
                "a half-open HTTPS connection stayed open")
            #expect(rig.residentBytes - before < Self.memoryBound)
            #expect(rig.isAlive)
        }
    }

    @Test func oneTenantsHeavyWorkDoesNotHoldAnother() async throws {
        try await HostileRig.with(arguments: ["--work-threads", "1"]) { rig in
            try await Self.addBusySchedule(port: rig.server.port, token: rig.server.adminToken)
            let before = rig.residentBytes
            // A definition whose resolution would stall the server is refused at once, on the
            // import path as on the edit path.
            let admin = try await RosterConnection.connect(
                host: "127.0.0.1", port: rig.server.port,
                hello: .with { $0.token = rig.server.adminToken })
            // Twenty minutely rotations, each at its own level: a year of them is ten million
            // stretches. People by full name, as an import may name them.
            let people = [
                Employee(id: "x1", firstName: "Xan", lastName: "One"),
                Employee(id: "x2", firstName: "Xan", lastName: "Two"),
            ]
            let stall = ScheduleDefinition(
                id: "", name: "Stall", zone: "UTC",
                layers: (0..<20).map { level in
                    ScheduleLayer(
                        level: level,
                        rotations: [
                            Rotation(
                                id: "m\(level)", slots: [["x1"], ["x2"]], cadence: .minutes(1),
                                handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                        ])
                })
            let file = RosterExport.snapshotJSON(
                RosterState(tenant: Tenant(id: "demo", name: "Demo"), employees: people, schedules: [stall]))
            do {
                _ = try await admin.request(
                    .importData(
                        .with {
                            $0.format = .snapshotJson; $0.data = file
                        }))
                Issue.record("an import that would stall the server was accepted")
            } catch let error as RosterClientError {
                #expect(error.code == .invalidArgument, "\(error)")
            }
            await admin.close()
            // Two connections keep the work pool busy with years of the busy schedule, reading
            // their answers (so nothing holds them back) for the whole test.
            let attack = Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            guard
                                let reader = try? await RosterConnection.connect(
                                    host: "127.0.0.1", port: rig.server.port)
                            else { return }
                            while !Task.isCancelled {
                                await withTaskGroup(of: Void.self) { burst in
                                    for _ in 0..<8 {
                                        burst.addTask {
                                            _ = try? await reader.request(Self.yearOfBusy, timeout: .seconds(60))
                                        }
                                    }
                                }
                            }
                            await reader.close()
                        }
                    }
                }
            }
            defer { attack.cancel() }
            try await Task.sleep(for: .seconds(2))
            for _ in 0..<3 {
                try await rig.bystanderRoundTrip()
                #expect(
                    try await HTTPGet.request("http://127.0.0.1:\(try #require(rig.server.httpPort))/livez").status
                        == 200)
            }
            #expect(rig.residentBytes - before < Self.memoryBound)
            attack.cancel()
            await attack.value
            #expect(rig.isAlive)
        }
    }

    @Test func idleHTTPConnectionsCannotTakeEveryDescriptor() async throws {
        try await HostileRig.with(arguments: [
            "--http-max-connections", "50", "--http-header-timeout-ms", "1500",
            "--http-idle-timeout-ms", "1500",
        ]) { rig in
            let http = try #require(rig.server.httpPort)
            let before = rig.residentBytes
            // More idle connections than the cap: those past it are answered 503 and closed at once.
            let idle = try (0..<120).map { _ in try HostileSocket(port: http) }
            #expect(
                await eventually(10) { idle.filter(\.serverHasClosed).count >= 60 },
                "connections past the cap are refused")
            // The protocol port and the store are untouched.
            try await rig.bystanderRoundTrip()
            // The rest are closed at the header deadline, and HTTP answers again.
            #expect(await eventually(20) { idle.allSatisfy(\.serverHasClosed) })
            #expect(
                await eventually(20) { (try? await HTTPGet.request("http://127.0.0.1:\(http)/livez").status) == 200 })
            #expect(rig.residentBytes - before < Self.memoryBound)
            #expect(rig.isAlive)
        }
    }

    @Test func floodsOfRefusedHellosWithHugeTenantNamesWriteNothingToTheAuditLog() async throws {
        try await HostileRig.with { rig in
            let path = rig.server.dataDirectory + "/roster.sqlite"
            let sizeBefore = Self.fileSize(path) + Self.fileSize(path + "-wal")
            let name = String(repeating: "x", count: 3_000)
            for _ in 0..<200 {
                let socket = try HostileSocket(port: rig.server.port)
                socket.send(
                    .hello(
                        .with {
                            $0.minVersion = WireProtocol.supportedVersions.lowerBound
                            $0.maxVersion = WireProtocol.supportedVersions.upperBound
                            $0.tenant = name
                        }), requestID: 1)
            }
            try await rig.bystanderRoundTrip()
            // 200 × 3 KB names would be 600 KB of audit rows; a tenant that does not exist has none.
            #expect(Self.fileSize(path) + Self.fileSize(path + "-wal") - sizeBefore < 300_000)
            #expect(rig.isAlive)
        }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}

extension HostileSocket {
    /// Whether the server has closed its end (TCP state CLOSE_WAIT or CLOSE), without reading.
    var serverHasClosed: Bool {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return true }
        return info.tcpi_state == 8 /* CLOSE_WAIT */ || info.tcpi_state == 7 /* CLOSE */
    }
}
