import Foundation
import Logging
import NIOCore
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterTLS
import RosterTestSupport
import ServiceLifecycle
import Testing

/// The server fails clearly and keeps its data private.
@Suite(.timeLimit(.minutes(10))) struct ServerStartTests {
    @Test func aBusyPortIsNamedAndNothingIsWrittenBeforeTheBind() async throws {
        try await withServer { running in
            let directory = TestScratch.directory("roster-busy").appendingPathComponent("data").path
            var configuration = ServerConfiguration(dataDirectory: directory)
            configuration.listen.port = running.port
            let second = RosterServer(configuration: configuration, clock: ManualClock(now: t0))
            await #expect {
                try await second.run()
            } throws: { error in
                "\(error)"
                    == "127.0.0.1:\(running.port) is already in use (another roster-server, or another program, listens there)"
            }
            #expect(
                !FileManager.default.fileExists(atPath: directory), "nothing is written to the data dir before the bind"
            )

            // In a service group, whoever waits for the ports learns why there are none.
            let third = RosterServer(configuration: configuration, clock: ManualClock(now: t0))
            let group = ServiceGroup(configuration: .init(services: [third], logger: Logger(label: "roster.test.busy")))
            let run = Task { try await group.run() }
            await #expect(throws: ServerStartError.addressInUse("127.0.0.1:\(running.port)")) {
                _ = try await third.listening
            }
            await #expect(throws: ServerStartError.self) { try await run.value }
        }
    }

    /// A store made without --demo starts with a tenant called `default` (named Default), and
    /// its first admin token is for it; with --demo it is `demo`. A store that has `demo` (made by
    /// an earlier build, whose clients, tokens and caches are bound to it) keeps selecting that one,
    /// and --default-tenant names another.
    @Test func theDefaultTenantIsTheStoresOwn() async throws {
        let scratch = TestScratch.directory("roster-default-tenant")
        defer { TestScratch.remove(scratch) }
        /// What an anonymous client is welcomed to, the admin token's tenant, and the store's tenants.
        func start(_ directory: String, demo: Bool = false, configured: String? = nil) async throws
            -> (tenant: String, name: String, tokenTenant: String, tenants: [String])
        {
            let harness = try await ServerHarness.start(dataDirectory: directory) {
                $0.defaultTenant = configured
                $0.demo = demo
            }
            return try await harness.stoppingOnError { harness in
                let anonymous = try await harness.connect(token: "")
                let welcome = anonymous.welcome.tenant
                await anonymous.close()
                let admin = try await harness.connect(token: harness.adminToken)
                let tokenTenant = admin.welcome.tenant.id
                await admin.close()
                await harness.stop()
                let store = try await StoreLocation.sqlite(path: directory + "/roster.sqlite").open()
                let tenants = try await store.tenantIDs()
                try await store.close()
                return (welcome.id, welcome.name, tokenTenant, tenants.sorted())
            }
        }

        let plain = scratch.appendingPathComponent("plain").path
        let first = try await start(plain)
        #expect(
            first.tenant == "default" && first.name == "Default" && first.tokenTenant == "default"
                && first.tenants == ["default"],
            "\(first)")
        #expect(try await start(plain).tenant == "default", "a restart selects the same tenant")

        let demo = scratch.appendingPathComponent("demo").path
        let demoStart = try await start(demo, demo: true)
        #expect(
            demoStart.tenant == "demo" && demoStart.tokenTenant == "demo" && demoStart.tenants == ["demo"],
            "\(demoStart)")
        let demoLater = try await start(demo)
        #expect(
            demoLater.tenant == "demo" && demoLater.tenants == ["demo"], "a store that has demo keeps it: \(demoLater)")

        let named = try await start(plain, configured: "acme")
        #expect(named.tenant == "acme" && named.tenants == ["acme", "default"], "\(named)")
    }

    /// One process owns a data directory: a second server, and a restore under a running one,
    /// are refused with the owner's PID, instead of losing what the first acknowledges.
    @Test func oneProcessOwnsADataDirectory() async throws {
        try await withServer { running in
            var configuration = ServerConfiguration(dataDirectory: running.dataDirectory)
            configuration.listen.host = "127.0.0.1"
            configuration.listen.port = 0
            let second = RosterServer(configuration: configuration, clock: ManualClock(now: t0))
            await #expect(throws: DataDirectoryError.inUse(running.dataDirectory, pid: getpid())) {
                try await second.run()
            }
            #expect(second.port == nil)

            let cli = CLI(port: running.port)
            defer { TestScratch.remove(cli.home) }
            let backup = cli.home.appendingPathComponent("backup.sqlite").path
            try FileManager.default.createDirectory(at: cli.home, withIntermediateDirectories: true)
            let taken = try await cli.server(["backup", "--data-dir", running.dataDirectory, "--to", backup])
            #expect(taken.status == 0, "a backup of a running server is fine: \(taken.stderr)")
            let restore = try await cli.server([
                "restore", "--from", backup, "--data-dir", running.dataDirectory, "--replace",
            ])
            #expect(restore.status != 0)
            #expect(restore.stderr.contains("in use by a roster-server (PID \(getpid()))"), "\(restore.stderr)")
            // The running server still serves, on its own database.
            let client = try await running.connect(token: running.adminToken)
            _ = try await client.addEmployee("Grace", "Hopper")
            await client.close()
        }
    }

    @Test func aFailedFirstStartLeavesNoDatabaseAndAFileIsNoDataDirectory() async throws {
        try await withServer { running in
            let directory = TestScratch.directory("roster-http-busy").appendingPathComponent("data").path
            var configuration = ServerConfiguration(dataDirectory: directory)
            configuration.listen.host = "127.0.0.1"
            configuration.listen.port = 0
            configuration.httpListen = HostPort(host: "127.0.0.1", port: running.port)  // taken
            let server = RosterServer(configuration: configuration, clock: ManualClock(now: t0))
            await #expect(throws: (any Error).self) { try await server.run() }
            let left = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            #expect(!left.contains { $0.hasPrefix("roster.sqlite") }, "\(left)")

            // The lock was given back: the same directory starts once the port is free.
            let again = try await ServerHarness.start(dataDirectory: directory)
            await again.stop()

            let file = TestScratch.directory("roster-file").appendingPathComponent("not-a-directory").path
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            var onFile = ServerConfiguration(dataDirectory: file)
            onFile.listen.host = "127.0.0.1"
            onFile.listen.port = 0
            await #expect(throws: DataDirectoryError.notADirectory(file)) {
                try await RosterServer(configuration: onFile, clock: ManualClock(now: t0)).run()
            }
        }
    }

    @Test func theDataDirectoryIsPrivate() async throws {
        try await withServer(configure: { $0.tls = .init() }) { harness in
            let client = try await harness.connect(
                tls: try TLSContext.client(.init(trust: .caFile(harness.dataDirectory + "/tls/ca.pem"))))
            _ = try await client.addEmployee("Ada", "Lovelace")  // so that the WAL exists
            await client.close()
            func mode(_ path: String) throws -> Int {
                try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            }
            #expect(try mode(harness.dataDirectory) == 0o700)
            #expect(try mode(harness.dataDirectory + "/tls") == 0o700)
            let files = try FileManager.default.subpathsOfDirectory(atPath: harness.dataDirectory)
                .filter { !$0.hasSuffix("tls") }
            #expect(
                files.contains("roster.sqlite") && files.contains("roster.sqlite-wal") && files.contains("admin.token"))
            #expect(files.contains("tls/ca.pem") && files.contains("tls/server.key"))
            for file in files {
                #expect(try mode(harness.dataDirectory + "/" + file) == 0o600, "\(file)")
            }
        }
    }

    /// The peer reads the Error frame even when it has sent much more than the server read: the
    /// server half-closes and drains instead of closing on unread input (which sends a reset).
    @Test func anErrorIsReadByThePeerEvenWithUnreadInputBehindIt() async throws {
        try await withServer { harness in
            for _ in 0..<20 {
                let socket = try RawSocket(port: harness.port)
                // A frame declaring 2 MiB before Hello (limit 4 KiB), then 256 KiB the server never decodes.
                socket.send([0x00, 0x20, 0x00, 0x00] + [UInt8](repeating: 0x41, count: 256 << 10))
                let (frames, closed) = await socket.readUntilClosed()
                #expect(frames.map(\.errorCode) == [.frameTooLarge], "the Error frame arrives, not a reset")
                #expect(closed && !socket.wasReset, "an orderly close after the frame, not a reset")
            }
        }
    }

    /// Loopback is decided by the bound address, not by how the name looks.
    @Test func loopbackIsTheBoundAddressNotTheName() async throws {
        for (text, loopback) in [
            ("127.0.0.1", true), ("127.200.1.9", true), ("::1", true), ("::ffff:127.0.0.1", true),
            ("0.0.0.0", false), ("10.0.0.1", false), ("::", false), ("::ffff:10.0.0.1", false),
        ] {
            #expect(
                ServerConfiguration.isLoopback(try SocketAddress(ipAddress: text, port: 7400)) == loopback, "\(text)")
        }
        // A name that only looks like loopback does not get plaintext: here it does not even resolve.
        var configuration = ServerConfiguration(
            dataDirectory: TestScratch.directory("roster-name").appendingPathComponent("d").path)
        configuration.listen.host = "127.evil.invalid"
        configuration.listen.port = 0
        let server = RosterServer(configuration: configuration, clock: ManualClock(now: t0))
        await #expect(throws: (any Error).self) { try await server.run() }
        #expect(server.port == nil, "nothing listens")
        // "localhost" resolves to a loopback address and serves plaintext.
        try await withServer(configure: { $0.listen.host = "localhost" }) { harness in
            let client = try await harness.connect(token: "", host: "localhost")
            await client.close()
        }
    }

    @Test func logsCanBeJSONLinesForJournaldAndShippers() async throws {
        try await withServerProcess(arguments: ["--log-format", "json"]) { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await cli.run(["admin", "motd", "set", "a line with \"quotes\"\nand a break"])
            await server.terminate()
            let lines = server.child.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count >= 3)
            for line in lines {
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
                #expect(object["time"] is String && object["level"] is String && object["message"] is String, "\(line)")
            }
            #expect(lines.contains { $0.contains("\"message\":\"listening on 127.0.0.1:\(server.port)\"") }, "\(lines)")
            // Addresses read as HOST:PORT, not as NIO's "[IPv4]127.0.0.1/127.0.0.1:PORT".
            #expect(lines.contains { $0.contains("HTTP on 127.0.0.1:") })
            #expect(!server.child.stderr.contains("[IPv"), "\(lines)")
        }
    }

    @Test func aConfigFileIsCheckedLineByLineAndServesWithFlagsAndEnvironmentAboveIt() async throws {
        let scratch = TestScratch.directory("roster-config")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cli = CLI(port: 1)
        let bad = scratch.appendingPathComponent("bad.yaml")
        try Data("listen: 127.0.0.1:7400\nlisen: x\nmax-connections: lots\ntls: maybe\n".utf8).write(to: bad)
        let refused = try await cli.server(["config", "check", bad.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("line 2: unknown key \"lisen\" (did you mean listen?)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("line 3: max-connections: expected a whole number (got \"lots\")"))
        #expect(refused.stderr.contains("line 4: tls: expected true or false"))

        let good = scratch.appendingPathComponent("roster.yaml")
        try Data("# the demo, logging JSON\nlog-format: json\ndemo: true\nlog-level: info\n".utf8).write(to: good)
        let checked = try await cli.server(["config", "check", good.path])
        #expect(checked.status == 0 && checked.stdout.contains("ok (3 settings)"), "\(checked.stderr)")
        let printed = try await cli.server(["config", "print", "--config", good.path])
        #expect(
            printed.stdout.contains("demo = true\t(\(good.path):3)")
                && printed.stdout.contains("listen = 127.0.0.1:7400\t(default)"), "\(printed.stdout)")

        // serve --config: the file's settings apply (JSON logs, the demo) under the flags given.
        try await withServerProcess(arguments: ["--config", good.path]) { server in
            let schedules = try await CLI(port: server.port).run(["schedules", "--json"])
            #expect(schedules.stdout.contains("Demo fast rotation"), "demo: true from the file")
            await server.terminate()
            let first = try #require(server.child.stderr.split(separator: "\n").first)
            #expect(first.hasPrefix("{\"time\":"), "log-format: json from the file: \(first)")
        }
    }

    /// SIGHUP (`systemctl reload`): the log level from the config file and the certificate from
    /// its files, while a connection made before stays open; systemd hears READY, RELOADING,
    /// READY and STOPPING on NOTIFY_SOCKET.
    @Test func sighupReloadsTheLogLevelAndTheCertificateWithoutDroppingConnectionsAndSystemdIsTold() async throws {
        let scratch = TestScratch.directory("roster-reload")
        defer { TestScratch.remove(scratch) }
        let first = try TestPKI(), second = try TestPKI()
        defer { TestScratch.remove(first.directory); TestScratch.remove(second.directory) }
        let chain = scratch.appendingPathComponent("server.pem").path,
            key = scratch.appendingPathComponent("server.key").path
        func install(_ pki: TestPKI) throws {
            try Data(contentsOf: URL(fileURLWithPath: pki.serverChainFile)).write(to: URL(fileURLWithPath: chain))
            try Data(contentsOf: URL(fileURLWithPath: pki.serverKeyFile)).write(to: URL(fileURLWithPath: key))
        }
        try install(first)
        let config = scratch.appendingPathComponent("roster.yaml")
        try Data("log-level: info\n".utf8).write(to: config)
        let notify = try NotifySocket(in: scratch)
        let data = scratch.appendingPathComponent("data").path
        let server = try await ServerProcess.start(
            dataDirectory: data, arguments: ["--config", config.path, "--tls-cert", chain, "--tls-key", key],
            environment: ["NOTIFY_SOCKET": notify.path])
        try await withCleanup(
            server,
            cleanUp: {
                await $0.terminate(); notify.close()
            }
        ) { server in
            #expect(await notify.waitFor { $0.hasPrefix("READY=1") }, "READY once listening: \(notify.messages)")
            let trustsFirst = try TLSContext.client(.init(trust: .caFile(first.caFile)))
            let trustsSecond = try TLSContext.client(.init(trust: .caFile(second.caFile)))
            let before = try await RosterConnection.connect(host: "127.0.0.1", port: server.port, tls: trustsFirst)
            #expect(!server.child.stderr.contains("handshake done"), "debug is off at info")

            try install(second)
            try Data("log-level: debug\n".utf8).write(to: config)
            server.child.signal(SIGHUP)
            #expect(
                await notify.waitFor(2) { $0.hasPrefix("READY=1") }, "READY again after the reload: \(notify.messages)")
            #expect(notify.messages.contains { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") })

            let after = try await RosterConnection.connect(host: "127.0.0.1", port: server.port, tls: trustsSecond)
            await #expect(throws: (any Error).self, "the old certificate is gone for new connections") {
                _ = try await RosterConnection.connect(host: "127.0.0.1", port: server.port, tls: trustsFirst)
            }
            guard case .onDuty = try await before.request(.getOnDuty(.init())) else {
                throw TestFailure("expected OnDuty")
            }
            let debugLogged = await server.child.waitForOutput { $0.contains("handshake done") ? true : nil } ?? false
            #expect(debugLogged, "debug logging after the reload: \(server.child.stderr)")

            // A certificate that does not load leaves the current one serving.
            try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: chain))
            server.child.signal(SIGHUP)
            #expect(await notify.waitFor(3) { $0.hasPrefix("READY=1") })
            // The log line and READY take different paths to this process: wait for the line.
            let refused = await server.child.waitForOutput {
                $0.contains("the TLS certificate does not load, the old one stays") ? true : nil
            }
            #expect(refused ?? false, "\(server.child.stderr)")
            let still = try await RosterConnection.connect(host: "127.0.0.1", port: server.port, tls: trustsSecond)
            for connection in [before, after, still] { await connection.close() }

            await server.terminate()
            #expect(notify.messages.last == "STOPPING=1")
        }
    }
}
