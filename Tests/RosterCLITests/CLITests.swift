import Foundation
import RosterTestSupport
import Testing

/// The built roster-client against a real roster-server process, through --json output.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CLITests {
    /// A fresh server child and a CLI with its admin token; the server is stopped afterwards.
    func withFreshServer(_ body: (ServerProcess, CLI) async throws -> Void) async throws {
        try await withServerProcess { server in
            try await body(server, CLI(port: server.port, token: server.adminToken))
        }
    }

    @Test func adminThenReadsThroughTheCLI() async throws {
        try await withFreshServer { server, cli in
            let added = try await cli.run([
                "admin", "employee", "add", "--first", "Ada", "--last", "Lovelace", "--position", "Engineer",
                "--team", "Core", "--email", "ada@example.com", "--project", "Engine", "--json",
            ])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.object["revision"] as? Int == 1)
            try await cli.run([
                "admin", "employee", "add", "--first", "René", "--last", "Descartes", "--position", "Philosopher",
                "--team", "Edge",
            ])
            // Absolute instants, so that René starts exactly when Ada ends.
            let hour = 3_600.0, base = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60
            func iso(_ offset: Double) -> String { Date(timeIntervalSince1970: base + offset).formatted(.iso8601) }
            let shift = try await cli.run([
                "admin", "shift", "add", "--employee", "Ada Lovelace", "--start", iso(-hour), "--end", iso(hour),
                "--role", "primary",
            ])
            #expect(shift.status == 0, "\(shift.stderr)")
            try await cli.run([
                "admin", "shift", "add", "--employee", "rene descartes", "--start", iso(hour), "--end", iso(3 * hour),
            ])

            let now = try await cli.run(["now", "--json", "--schedule", "default"])
            #expect(now.status == 0)
            #expect(now.object["source"] as? String == "server")
            // Every schedule: one document, a list (issue #31: one document per schedule before).
            let every = try await cli.run(["now", "--json"])
            let listed = try #require(every.json as? [[String: Any]], "\(every.stdout)")
            #expect(listed.map { $0["scheduleId"] as? String } == ["default"])
            let current = now.object["current"] as? [[String: Any]] ?? []
            #expect(current.map { $0["name"] as? String } == ["Ada Lovelace"])
            let next = now.object["next"] as? [[String: Any]] ?? []
            #expect(next.map { $0["name"] as? String } == ["René Descartes"])

            let groups = try await cli.run(["employees", "--group-by", "team", "--json"])
            #expect((groups.object["groups"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Core", "Edge"])

            let search = try await cli.run(["search", "rene", "--json"])
            #expect(
                (search.object["employees"] as? [[String: Any]])?.map { $0["lastName"] as? String } == ["Descartes"])

            let show = try await cli.run(["show", "Ada Lovelace", "--json"])
            #expect((show.object["employee"] as? [String: Any])?["email"] as? String == "ada@example.com")
            #expect((show.object["shifts"] as? [[String: Any]])?.count == 1)

            let shifts = try await cli.run(["shifts", "--from", "now", "--to", "+4h", "--json"])
            #expect(
                (shifts.json as? [[String: Any]])?.map { $0["employee"] as? String } == [
                    "Ada Lovelace", "René Descartes",
                ])

            let table = try await cli.run(["employees"])
            #expect(table.stdout.split(separator: "\n").first?.hasPrefix("NAME") == true)
            #expect(table.stdout.contains("René Descartes"))

            try await cli.run(["admin", "motd", "set", "Hello from the CLI"])
            let update = try await cli.run(["admin", "employee", "update", "Ada Lovelace", "--team", "Edge"])
            #expect(update.status == 0, "\(update.stderr)")
            let moved = try await cli.run(["show", "ada lovelace", "--json"])
            #expect((moved.object["employee"] as? [String: Any])?["team"] as? String == "Edge")
            let removed = try await cli.run(["admin", "employee", "remove", "René Descartes"])
            #expect(removed.status == 0)
            #expect(try await cli.run(["shifts", "--json"]).json as? [Any] != nil)
        }
    }

    @Test func unknownEmployeeSuggestsCloseNames() async throws {
        try await withFreshServer { server, cli in
            try await cli.run(["admin", "employee", "add", "--first", "Grace", "--last", "Hopper"])
            let result = try await cli.run(["show", "Grace Hoper"])
            #expect(result.status == 8)
            #expect(result.stderr.contains("did you mean Grace Hopper?"))
            #expect(try await cli.run(["admin", "employee", "remove", "Nobody At All"]).status == 8)
        }
    }

    @Test func refusedInputListsEveryBadRecord() async throws {
        try await withFreshServer { server, cli in
            let file = cli.home.appendingPathComponent("people.csv")
            try FileManager.default.createDirectory(at: cli.home, withIntermediateDirectories: true)
            try "first_name,last_name,email\nAda,Lovelace,ada@example.com\n,Nobody,\nAlan,Turing,not-an-email\n".write(
                to: file, atomically: false, encoding: .utf8)
            let result = try await cli.run(["admin", "import", file.path])
            #expect(result.status == 9)
            #expect(result.stderr.contains("line 3, first_name: is empty"))
            #expect(result.stderr.contains("line 4, email: \"not-an-email\" is not an email address"))
            #expect(try await cli.run(["employees", "--json"]).status == 5, "nothing was imported: no employees")

            let bad = try await cli.run(["admin", "shift", "add", "--employee", "x", "--start", "+2h", "--end", "+1h"])
            #expect(bad.status == 9 || bad.status == 8)
        }
    }

    @Test func unreachableServerAnswersFromTheCacheWithItsAge() async throws {
        try await withFreshServer { server, cli in
            try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace"])
            try await cli.run([
                "admin", "shift", "add", "--employee", "Ada Lovelace", "--start", "1h ago", "--end", "in 1h",
            ])
            #expect(try await cli.run(["now"]).status == 0)  // fills the cache
            await server.terminate()
            let gone = try RefusingPort(holding: server.port)  // refused, not taken by another test
            defer { withExtendedLifetime(gone) {} }

            let cached = try await cli.run(["now", "--json", "--schedule", "default"])
            #expect(cached.status == 3)
            #expect(cached.object["source"] as? String == "cache")
            #expect(cached.object["ageSeconds"] as? Int != nil)
            #expect((cached.object["current"] as? [[String: Any]])?.first?["name"] as? String == "Ada Lovelace")
            #expect(cached.stderr.contains("showing cached data from"))

            let offline = try await cli.run(["now", "--offline"])
            #expect(offline.status == 0)
            #expect(offline.stdout.contains("Ada Lovelace"))
            #expect(offline.stderr.contains("Offline: cached data from"))

            let employees = try await cli.run(["employees"])
            #expect(employees.status == 3 && employees.stdout.contains("Lovelace"))
        }
    }

    @Test func corruptCacheIsIgnoredWithAWarning() async throws {
        let cli = CLI(port: 1)
        let cacheDirectory = cli.home.appendingPathComponent("cache/roster")
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: cacheDirectory.appendingPathComponent("127_0_0_1_1-default.cache"))
        let result = try await cli.run(["now", "--offline"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("corrupt"))
    }

    @Test func badArgumentsAndHelp() async throws {
        let cli = CLI(port: 1)
        #expect(try await cli.run(["now", "--at", "half past nine"]).status == 64)
        #expect(try await cli.run(["employees", "--group-by", "shoe-size"]).status == 64)
        #expect(try await cli.run(["now", "--server", "no-port"]).status == 64)
        #expect(try await cli.run(["frobnicate"]).status == 64)
        // The hint names the command, not the arguments given to it (unquoted, they would not paste).
        let unknown = try await cli.run(["show", "Ada Lovelace", "--bogus"])
        #expect(
            unknown.status == 64 && unknown.stderr.hasSuffix("See `roster-client show --help`.\n"), "\(unknown.stderr)")
        let nested = try await cli.run(["admin", "timeoff", "add", "Ada Lovelace", "--bogus"])
        #expect(nested.stderr.hasSuffix("See `roster-client admin timeoff add --help`.\n"), "\(nested.stderr)")
        let help = try await cli.run(["--help"])
        #expect(help.status == 0)
        for command in ["watch", "now", "employees", "search", "show", "shifts", "admin"] {
            #expect(help.stdout.contains(command))
        }
        let commands = [
            ["watch"], ["now"], ["employees"], ["search"], ["show"], ["shifts"], ["admin", "employee", "add"],
            ["admin", "employee", "update"], ["admin", "employee", "remove"], ["admin", "shift", "add"],
            ["admin", "shift", "remove"], ["admin", "motd", "set"], ["admin", "import"],
        ]
        for command in commands {
            let sub = try await cli.run(command + ["--help"])
            #expect(sub.status == 0 && sub.stdout.contains("--server"), "\(command) --help")
        }
        let admin = try await cli.run(["admin", "--help"])
        #expect(admin.status == 0 && admin.stdout.contains("employee") && admin.stdout.contains("import"))
        #expect(help.stdout.contains("Exit codes"))
    }

    @Test func showTakesAUniqueMatchAndNowNamesOnlyWhoComesOn() async throws {
        try await withFreshServer { server, cli in
            try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace"])
            try await cli.run(["admin", "employee", "add", "--first", "Grace", "--last", "Hopper"])
            try await cli.run(["admin", "employee", "add", "--first", "Grace", "--last", "Kelly"])
            let unique = try await cli.run(["show", "Ada", "--json"])
            #expect(
                unique.status == 0
                    && (unique.object["employee"] as? [String: Any])?["lastName"] as? String == "Lovelace")
            let ambiguous = try await cli.run(["show", "Grace"])
            #expect(ambiguous.status == 8)
            #expect(
                ambiguous.stderr.contains("Grace Hopper") && ambiguous.stderr.contains("Grace Kelly"),
                "\(ambiguous.stderr)")

            try await cli.run([
                "admin", "shift", "add", "--employee", "Ada Lovelace", "--start", "1h ago", "--end", "in 3h",
                "--role", "primary",
            ])
            try await cli.run([
                "admin", "shift", "add", "--employee", "Grace Hopper", "--start", "1h ago", "--end", "in 1h",
                "--role", "secondary",
            ])
            let now = try await cli.run(["now"])
            let lines = now.stdout.split(separator: "\n")
            #expect(lines.contains { $0.contains("ROLE") }, "\(now.stdout)")
            #expect(lines.contains { $0.contains("Ada Lovelace") && $0.contains("primary") })
            let next = try #require(lines.first { $0.hasPrefix("Next at") })
            #expect(next.hasSuffix("nobody new (Ada Lovelace stays on)"), "Ada is on duty: not named as next (\(next))")

            // Grace Kelly comes before Grace Hopper leaves, and both who are on duty stay on: all said.
            try await cli.run([
                "admin", "shift", "add", "--employee", "Grace Kelly", "--start", "in 50m", "--end", "in 2h",
            ])
            let joined = try #require(
                try await cli.run(["now"]).stdout.split(separator: "\n").first { $0.hasPrefix("Next at") })
            #expect(joined.hasSuffix("Grace Kelly joins (Ada Lovelace, Grace Hopper stay on)"), "\(joined)")
        }
    }

    @Test func aTimeoutIsADurationAndASilentServerTimesOut() async throws {
        #expect(try await CLI(port: 1).run(["now", "--timeout", "soon"]).status == 64)
        // A listener that accepts and never answers.
        let silent = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(silent) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(silent, $0, length) }
        }
        listen(silent, 8)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(silent, $0, &length) }
        }
        let result = try await CLI(port: Int(UInt16(bigEndian: address.sin_port))).run(["now", "--timeout", "1s"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("did not answer in time"), "\(result.stderr)")
    }
}
