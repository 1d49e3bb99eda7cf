import Foundation
import RosterAsCode
import RosterTestSupport
import Testing

/// Issue #38's "done when", with the built binaries on the demo, as a new user tries it: export
/// the tenant, change one rotation's people in the file, `plan` shows that change and the
/// stretches that move (exit 2), `apply` commits it as one revision, `plan` again has nothing to
/// do (exit 0). Also: a change between plan and apply is refused, a broken file's problems come
/// with their lines, and the JSON Schema accepts the export and the example.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AsCodeCLITests {
    static func revision(_ plan: CLI.Result) -> Int? { plan.object["revision"] as? Int }

    @Test func exportChangeOneRotationPlanApplyPlanAgain() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }
            let file = admin.home.appendingPathComponent("roster.yaml").path

            let export = try await admin.run(["export", "--format", "yaml"])
            try #require(export.status == 0, "\(export.stderr)")
            #expect(
                export.stdout.hasPrefix("# Roster tenant definition") && export.stdout.contains("id: platform-weekly"))
            let order = "              - Ada Lovelace\n              - Alan Turing\n              - Grace Hopper\n"
            try #require(export.stdout.contains(order), "the demo's Platform primary rotation: \(export.stdout)")
            let changed = export.stdout.replacingOccurrences(
                of: order,
                with: "              - Ada Lovelace\n              - Grace Hopper\n              - Alan Turing\n")
            try changed.write(toFile: file, atomically: false, encoding: .utf8)

            let plan = try await admin.run(["plan", "-f", file])
            #expect(plan.status == 2, "plan exits 2 when there are changes: \(plan.stderr)")
            #expect(plan.stdout.contains("~ rotation Platform primary / platform-weekly"), "\(plan.stdout)")
            #expect(
                plan.stdout.contains(
                    "people: \"Ada Lovelace, Alan Turing, Grace Hopper, Edsger Dijkstra, Barbara Liskov\" → "
                        + "\"Ada Lovelace, Grace Hopper, Alan Turing, Edsger Dijkstra, Barbara Liskov\""),
                "\(plan.stdout)")
            #expect(
                plan.stdout.contains("Platform primary: ") && plan.stdout.contains(" gains ")
                    && plan.stdout.contains(" loses "), "\(plan.stdout)")
            let planned = try await admin.run(["plan", "-f", file, "--json"])
            #expect(planned.status == 2)
            let objects = try #require(planned.object["objects"] as? [[String: Any]], "\(planned.stdout)")
            let rotation = try #require(objects.first { $0["action"] as? String == "change" }, "\(objects)")
            #expect(
                rotation["kind"] as? String == "rotation" && rotation["id"] as? String == "platform-weekly"
                    && rotation["line"] as? Int != nil)
            #expect(objects.filter { ["create", "change", "delete"].contains($0["action"] as? String) }.count == 1)
            #expect(!((planned.object["duty"] as? [[String: Any]]) ?? []).isEmpty, "the stretches that move")
            let revision = try #require(Self.revision(planned))

            let apply = try await admin.run(["apply", "-f", file, "--yes", "--expect-revision", "\(revision)"])
            #expect(apply.status == 0, "\(apply.stderr)")
            #expect(
                apply.stdout.contains("Applied \(file) as revision \(revision + 1): 1 changed."),
                "one revision: \(apply.stdout)")

            let again = try await admin.run(["plan", "-f", file])
            #expect(again.status == 0 && again.stdout.contains("Nothing to do"), "\(again.stdout)\(again.stderr)")
            let oncall = try await admin.run(["schedule", "show", "Platform primary"])
            #expect(oncall.stdout.contains("Ada Lovelace, Grace Hopper, Alan Turing"), "\(oncall.stdout)")

            // A second export is what the file says, with where the new version starts.
            let reexport = try await admin.run(["export", "--format", "yaml"])
            let problems = try await DefinitionSchema.problems([
                export.stdout, reexport.stdout,
                try String(
                    contentsOfFile:
                        DefinitionSchema.path.replacingOccurrences(
                            of: "roster-definition.schema.json", with: "examples/roster.yaml"), encoding: .utf8),
            ])
            #expect(problems == [[], [], []], "the JSON Schema accepts the exports and the example: \(problems)")
        }
    }

    @Test func theDemoExportedAndAppliedToAnEmptyServerExportsTheSame() async throws {
        try await withServerProcess(arguments: ["--demo"]) { demo in
            let source = CLI(port: demo.port, token: demo.adminToken)
            defer { TestScratch.remove(source.home) }
            let export = try await source.run(["export", "--format", "yaml"])
            try #require(export.status == 0, "\(export.stderr)")
            let file = source.home.appendingPathComponent("demo.yaml").path
            try export.stdout.write(toFile: file, atomically: false, encoding: .utf8)
            try await withServerProcess { empty in
                let copy = CLI(port: empty.port, token: empty.adminToken)
                defer { TestScratch.remove(copy.home) }
                let plan = try await copy.run(["plan", "-f", file])
                #expect(
                    plan.status == 2 && plan.stdout.contains("+ schedule Platform primary"),
                    "\(plan.stdout)\(plan.stderr)")
                let apply = try await copy.run(["apply", "-f", file, "--yes"])
                #expect(apply.status == 0, "\(apply.stdout)\(apply.stderr)")
                let again = try await copy.run(["export", "--format", "yaml"])
                #expect(
                    again.stdout == export.stdout,
                    "export → apply → export differs:\n\(export.stdout)\n---\n\(again.stdout)")
                let nothing = try await copy.run(["plan", "-f", file])
                #expect(nothing.status == 0, "\(nothing.stdout)")
            }
        }
    }

    /// Every definition docs/AS-CODE.md shows and docs/examples/roster.yaml: the JSON Schema and
    /// our reader both take them.
    @Test func everyExampleInTheDocsIsValid() async throws {
        let docs = URL(fileURLWithPath: DefinitionSchema.path).deletingLastPathComponent()
        let page = try String(contentsOf: docs.appendingPathComponent("AS-CODE.md"), encoding: .utf8)
        var examples = page.components(separatedBy: "```yaml\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        .filter { $0.hasPrefix("version: 1") }
        #expect(examples.count == 1, "the format's example")
        examples.append(try String(contentsOf: docs.appendingPathComponent("examples/roster.yaml"), encoding: .utf8))
        let problems = try await DefinitionSchema.problems(examples)
        #expect(problems == Array(repeating: [], count: examples.count), "\(problems)")
        for example in examples {
            do throws(DefinitionFile.Problems) {
                _ = try DefinitionFile.parse(example, path: "example.yaml") { _ in "a-secret-of-sixteen-bytes" }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func aChangeBetweenPlanAndApplyIsRefusedAndAFilesProblemsComeWithTheirLines() async throws {
        try await withServerProcess(arguments: ["--demo"]) { server in
            let admin = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(admin.home) }
            let file = admin.home.appendingPathComponent("roster.yaml").path
            let export = try await admin.run(["export", "--format", "yaml"])
            try export.stdout.replacingOccurrences(of: "name: Platform primary", with: "name: Platform on call")
                .write(toFile: file, atomically: false, encoding: .utf8)
            let plan = try await admin.run(["plan", "-f", file, "--json"])
            #expect(plan.status == 2)
            let revision = try #require(Self.revision(plan))
            // Meanwhile another admin adds someone.
            let added = try await admin.run(["admin", "employee", "add", "--first", "Zelda", "--last", "Kowalczyk"])
            #expect(added.status == 0, "\(added.stderr)")
            let apply = try await admin.run(["apply", "-f", file, "--yes", "--expect-revision", "\(revision)"])
            #expect(apply.status == 9 && apply.stderr.contains("changed since"), "\(apply.stdout)\(apply.stderr)")
            let still = try await admin.run(["plan", "-f", file])
            #expect(
                still.status == 2 && still.stdout.contains("name: \"Platform primary\" → \"Platform on call\""),
                "nothing was applied: \(still.stdout)")

            // Every problem at once, each at its line and column; nothing is sent or changed.
            let broken = """
                version: 1
                schedules:
                  - name: Database
                    colour: red
                    layers:
                      - rotations:
                          - people: [Ada Lovelace]
                            every: 1 week
                            handoff: "2026-11-30T09:00"
                webhooks:
                  - url: https://hooks.example.com/x
                    secret: written-in-the-file

                """
            try broken.write(toFile: file, atomically: false, encoding: .utf8)
            let refused = try await admin.run(["plan", "-f", file])
            #expect(refused.status == 9)
            #expect(refused.stderr.contains("\(file):4:5: schedules[0]: unknown key \"colour\""), "\(refused.stderr)")
            #expect(
                refused.stderr.contains("\(file):8:20: schedules[0].layers[0].rotations[0].every"), "\(refused.stderr)")
            #expect(
                refused.stderr.contains("\(file):12:13: webhooks[0].secret: a secret is never written in the file"),
                "\(refused.stderr)")
            #expect(refused.stderr.contains("3 problems in \(file); nothing was sent."), "\(refused.stderr)")
            // The server's problems come at their lines too.
            try broken.replacingOccurrences(of: "    colour: red\n", with: "").replacingOccurrences(
                of: "1 week", with: "1w"
            )
            .replacingOccurrences(of: "[Ada Lovelace]", with: "[Ada Lovelase]")
            .replacingOccurrences(of: "    secret: written-in-the-file\n", with: "    events: [nothing.happened]\n")
            .write(toFile: file, atomically: false, encoding: .utf8)
            let server = try await admin.run(["apply", "-f", file, "--yes"])
            #expect(server.status == 9)
            #expect(
                server.stderr.contains(
                    "\(file):6:13: schedules[0].layers[0].rotations[0] people: unknown person \"Ada Lovelase\"; did you mean Ada Lovelace?"
                ),
                "\(server.stderr)")
            #expect(
                server.stderr.contains("\(file):11:5: webhooks[0] events: unknown event type nothing.happened"),
                "\(server.stderr)")
            let after = try await admin.run(["plan", "-f", file, "--json"])
            #expect(Self.revision(after) == nil && after.status == 9)
        }
    }
}
