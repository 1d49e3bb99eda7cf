import Foundation
import RosterTestSupport
import Testing

/// `admin import` and `export` through the real binaries: nothing changes silently, a dry run
/// changes nothing, and an export reads back to the same state.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ImportExportCLITests {
    func file(_ cli: CLI, _ name: String, _ text: String) throws -> String {
        let url = cli.home.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: cli.home, withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }

    @Test func importsRefuseToOverwriteAndReImportsAddNothing() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            let people = try file(
                cli, "people.csv", "first_name,last_name,email,team\nAda,Lovelace,ada@example.com,Core\n")
            #expect(try await cli.run(["admin", "import", people]).status == 0)

            let changed = try file(cli, "changed.csv", "first_name,last_name,email\nAda,Lovelace,new@example.com\n")
            let refused = try await cli.run(["admin", "import", changed])
            #expect(refused.status == 9, "\(refused.stderr)")
            #expect(refused.stderr.contains("line 2"), "\(refused.stderr)")
            #expect(refused.stderr.contains("already exists"), "\(refused.stderr)")

            let dry = try await cli.run(["admin", "import", changed, "--update-existing", "--dry-run"])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.stdout.contains("Would import") && dry.stdout.contains("1 updated"), "\(dry.stdout)")
            let before = try await cli.run(["show", "Ada Lovelace", "--json"])
            #expect(
                (before.object["employee"] as? [String: Any])?["email"] as? String == "ada@example.com",
                "a dry run changes nothing")

            let updated = try await cli.run(["admin", "import", changed, "--update-existing", "--json"])
            #expect(updated.object["updated"] as? Int == 1, "\(updated.stdout) \(updated.stderr)")
            let after = try await cli.run(["show", "Ada Lovelace", "--json"])
            let ada = after.object["employee"] as? [String: Any]
            #expect(ada?["email"] as? String == "new@example.com")
            #expect(ada?["team"] as? String == "Core", "a column the file does not have keeps its value")

            let shifts = try file(
                cli, "shifts.csv",
                "employee,start,end,role\nAda Lovelace,2026-01-01T09:00:00Z,2026-01-01T17:00:00Z,primary\n")
            #expect(try await cli.run(["admin", "import", shifts]).status == 0)
            let again = try await cli.run(["admin", "import", shifts, "--json"])
            #expect(again.object["unchanged"] as? Int == 1 && again.object["added"] as? Int == 0, "\(again.stdout)")
            let listed = try await cli.run([
                "shifts", "--from", "2026-01-01T00:00:00Z", "--to", "2026-01-02T00:00:00Z", "--json",
            ])
            #expect((listed.json as? [Any])?.count == 1, "re-importing the same shifts adds none")

            let noConfirmation = try await cli.run(["admin", "import", people, "--replace"])
            #expect(noConfirmation.status == 64, "--replace without a terminal needs --yes")
            let badHeader = try file(cli, "bad.csv", "first_name,surname\nAda,Lovelace\n")
            let header = try await cli.run(["admin", "import", badHeader])
            #expect(header.status == 9 && header.stderr.contains("missing column last_name"), "\(header.stderr)")
        }
    }

    @Test func anExportImportsBackToTheSameState() async throws {
        try await withServerProcess { source in
            let cli = CLI(port: source.port, token: source.adminToken)
            try await cli.run([
                "admin", "employee", "add", "--first", "René", "--last", "Descartes", "--email", "rene@example.com",
                "--position", "Philosopher", "--team", "Edge", "--project", "Meditations", "--project", "Optics",
                "--bio", "Doubted, therefore was.", "--type", "contractor",
            ])
            try await cli.run([
                "admin", "employee", "add", "--first", "Ada", "--last", "Lovelace", "--phone", "+44 1, ext. 2",
            ])
            try await cli.run([
                "admin", "shift", "add", "--employee", "Ada Lovelace", "--start", "2026-01-01T09:00:00.250Z",
                "--end", "2026-01-01T17:00:00Z", "--role", "primary",
            ])
            try await cli.run(["admin", "motd", "set", "Kept across exports"])
            let json = try await cli.run(["export"])
            #expect(json.status == 0, "\(json.stderr)")
            let employeesCSV = try await cli.run(["export", "--format", "employees-csv"])
            let shiftsCSV = try await cli.run(["export", "--format", "shifts-csv"])

            for (name, files) in [
                ("json", [("export.json", json.stdout)]),
                ("csv", [("employees.csv", employeesCSV.stdout), ("shifts.csv", shiftsCSV.stdout)]),
            ] {
                try await withServerProcess { target in
                    let restore = CLI(port: target.port, token: target.adminToken)
                    for (fileName, text) in files {
                        let path = try file(restore, fileName, text)
                        let imported = try await restore.run(["admin", "import", path, "--replace", "--yes"])
                        #expect(imported.status == 0, "\(name): \(imported.stderr)")
                    }
                    #expect(
                        try await restore.run(["export", "--format", "employees-csv"]).stdout == employeesCSV.stdout,
                        "\(name)")
                    #expect(
                        try await restore.run(["export", "--format", "shifts-csv"]).stdout == shiftsCSV.stdout,
                        "\(name)")
                    if name == "json" {
                        let restored = try await restore.run(["export"]).stdout
                        #expect(
                            restored.replacingOccurrences(of: "\"Demo Corp\"", with: "x")
                                == json.stdout
                                .replacingOccurrences(of: "\"Demo Corp\"", with: "x"), "\(restored)")
                    }
                }
            }
        }
    }
}
