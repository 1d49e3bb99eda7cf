import Foundation
import GRDB
import PropertyBased
import RosterAsCode
import RosterClient
import RosterDomain
import RosterProtocol
@testable import RosterServerCore
import RosterTestSupport
import Testing

/// Schedules as code on real servers (issue #38): random definitions applied, exported, applied
/// to an empty tenant and exported again give the same file and the same duty; a second apply
/// changes nothing; a change between plan and apply is refused; an apply that fails inside its
/// transaction leaves nothing; a rename keeps the id.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DefinitionApplyTests {
    /// Monday 2026-11-30 12:00 UTC.
    static let now: UnixMillis = 1_796_040_000_000
    static let day: Int64 = 86_400_000

    // MARK: - Helpers

    /// A client of the harness's tenant with its admin token and a cache of its own.
    static func withClient<T>(_ harness: ServerHarness, _ body: (RosterClient) async throws -> T) async throws -> T {
        let cache = TestScratch.directory("roster-ascode")
        defer { TestScratch.remove(cache) }
        var configuration = RosterClientConfiguration(host: "127.0.0.1", port: harness.port)
        configuration.token = harness.adminToken
        configuration.cacheDirectory = cache
        // Planning resolves every schedule changed: seconds on a debug build beside the whole suite.
        configuration.timeout = .seconds(60)
        return try await using(RosterClient(configuration: configuration), body)
    }

    static func export(_ client: RosterClient, now: UnixMillis) async throws -> String {
        let state = try await client.refreshCache().state
        let settings = DefinitionExport.Settings(
            webhooks: try await client.webhooks(), reminders: try await client.reminders(),
            announcements: try await client.announcements())
        return DefinitionExport.yaml(state, settings: settings, now: now)
    }

    static let secrets = ["HOOK_SECRET": "s3cret-0123456789abcdef", "MATRIX_TOKEN": "syt_matrix_token_0123"]

    static func document(_ text: String) throws -> Roster_V1_DefinitionDocument {
        do throws(DefinitionFile.Problems) {
            return try DefinitionFile.parse(text, path: "roster.yaml") { reference in
                if case .environment(let name) = reference { return secrets[name] }
                return nil
            }.document
        } catch {
            throw TestFailure("the file is refused:\n\(error)\n\(text)")
        }
    }

    static func apply(
        _ client: RosterClient, _ text: String, prune: Bool = false, planOnly: Bool = false,
        expect: UInt64? = nil
    ) async throws -> Roster_V1_DefinitionPlan {
        let definition = try document(text)
        return try await client.applyDefinition(
            .with {
                $0.definition = definition
                $0.prune = prune
                $0.planOnly = planOnly
                if let expect { $0.expectRevision = expect }
            })
    }

    static func made(_ plan: Roster_V1_DefinitionPlan) -> [Roster_V1_DefinitionChange] {
        plan.changes.filter { [.create, .change, .delete].contains($0.action) }
    }

    /// Every schedule's final schedule over `days` from `from`, by schedule id, as "person start end".
    static func duty(_ client: RosterClient, from: UnixMillis, days: Int64) async throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        for schedule in try await client.schedules() {
            let answer = try await client.finalSchedule(
                FinalScheduleQuery(schedule: schedule.id, from: from, to: from + days * day))
            found[schedule.id] = answer.shifts.map { "\($0.employeeID) \($0.start) \($0.end)" }.sorted()
        }
        return found
    }

    // MARK: - Tests

    @Test(arguments: 0..<4) func aRandomDefinitionRoundTripsThroughAnEmptyTenantWithTheSameDuty(seed: UInt64)
        async throws
    {
        // The same random definitions for the same seed.
        var random = Xoshiro(seed: (seed + 1, 0x9E37_79B9_7F4A_7C15, seed &* 31 &+ 7, 0xD1B5_4A32_D192_ED03))
        let text = RandomDefinition.yaml(&random, now: Self.now)
        try await withServer(now: Self.now) { first in
            try await Self.withClient(first) { client in
                let applied = try await Self.apply(client, text)
                #expect(applied.committed, "\(text)")
                // A second apply of the same file changes nothing.
                let again = try await Self.apply(client, text)
                #expect(!again.committed && Self.made(again).isEmpty, "\(Self.made(again))\n\(text)")
                // An edit of a rotation's people makes a new version from now, with its offset.
                if let edited = RandomDefinition.reordered(text) {
                    let plan = try await Self.apply(client, edited)
                    #expect(
                        plan.committed && Self.made(plan).contains { $0.kind == "rotation" && $0.action == .change },
                        "\(edited)")
                }
                let exported = try await Self.export(client, now: Self.now)
                let plan = try await Self.apply(client, exported, planOnly: true)
                #expect(Self.made(plan).isEmpty, "an export plans nothing: \(Self.made(plan))")
                let duty = try await Self.duty(client, from: Self.now, days: 70)
                try await withServer(now: Self.now) { second in
                    try await Self.withClient(second) { copy in
                        let copied = try await Self.apply(copy, exported)
                        #expect(copied.committed)
                        let again = try await Self.export(copy, now: Self.now)
                        #expect(again == exported, "export → apply → export differs:\n\(exported)\n---\n\(again)")
                        let copiedDuty = try await Self.duty(copy, from: Self.now, days: 70)
                        for id in Set(duty.keys).union(copiedDuty.keys).sorted() {
                            let (mine, copied) = (duty[id] ?? [], copiedDuty[id] ?? [])
                            let first =
                                zip(mine, copied).first { $0 != $1 }.map { "\($0.0) ≠ \($0.1)" } ?? "one has more"
                            #expect(
                                mine == copied,
                                "schedule \(id): \(mine.count) against \(copied.count) stretches; first difference: \(first)"
                            )
                        }
                    }
                }
            }
        }
    }

    @Test func aChangeBetweenPlanAndApplyIsRefusedAndChangesNothing() async throws {
        try await withServer(now: Self.now) { harness in
            try await Self.withClient(harness) { client in
                _ = try await Self.apply(client, RandomDefinition.fixed)
                let edited = try #require(RandomDefinition.reordered(RandomDefinition.fixed))
                let plan = try await Self.apply(client, edited, planOnly: true)
                #expect(Self.made(plan).count == 1)
                // Another admin changes the tenant meanwhile.
                let admin = try await harness.connect(token: harness.adminToken)
                defer { Task { await admin.close() } }
                _ = try await admin.addEmployee("Katherine", "Johnson")
                await #expect(throws: RosterClientError.self) {
                    _ = try await Self.apply(client, edited, expect: plan.revision)
                }
                do {
                    _ = try await Self.apply(client, edited, expect: plan.revision)
                } catch RosterClientError.server(let body) {
                    #expect(
                        body.code == .failedPrecondition && body.message.contains("changed since"), "\(body.message)")
                }
                let still = try await Self.apply(client, edited, planOnly: true)
                #expect(
                    still.revision == plan.revision + 1 && Self.made(still).count == 1,
                    "nothing of the file was applied")
                // Planned again, it applies.
                let applied = try await Self.apply(client, edited, expect: still.revision)
                #expect(applied.committed && applied.revision == still.revision + 1)
            }
        }
    }

    @Test func anApplyThatFailsInsideItsTransactionLeavesNothing() async throws {
        try await withServer(now: Self.now) { harness in
            try await Self.withClient(harness) { client in
                let before = try await Self.apply(client, "version: 1\n", planOnly: true)
                // The store refuses the last row the transaction writes (an announcement), after
                // the people, the schedule and the webhooks are written in it.
                let database = try harness.openStoreFile()
                try await database.write { db in
                    try db.execute(
                        sql:
                            "CREATE TRIGGER refuse_announcements BEFORE INSERT ON announce_rule BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
                    )
                }
                try database.close()
                await #expect(throws: RosterClientError.self) {
                    _ = try await Self.apply(client, RandomDefinition.fixed)
                }
                let after = try await Self.apply(client, "version: 1\n", planOnly: true)
                #expect(after.revision == before.revision, "no revision was committed")
                let (webhooks, reminders, announcements) = (
                    try await client.webhooks(), try await client.reminders(), try await client.announcements()
                )
                #expect(webhooks.isEmpty && reminders.isEmpty && announcements.isEmpty)
                let state = try await client.refreshCache().state
                #expect(state.employees.isEmpty && state.schedule(idOrName: "Database") == nil)
                // A file with a problem anywhere changes nothing either, and says every problem.
                let broken = RandomDefinition.fixed.replacingOccurrences(
                    of: "before: 15m", with: "before: 15m\n    person: Nobody"
                )
                .replacingOccurrences(of: "zone: Europe/Berlin", with: "zone: Europe/Berlinn")
                do {
                    _ = try await Self.apply(client, broken)
                    Issue.record("a broken file was applied")
                } catch RosterClientError.server(let body) {
                    let places = body.violations.map { "\($0.location) \($0.field)" }
                    #expect(
                        places.contains("schedules[0] zone") && places.contains { $0.hasPrefix("reminders[0]") },
                        "\(places)")
                }
                #expect(try await Self.apply(client, "version: 1\n", planOnly: true).revision == before.revision)
            }
        }
    }

    /// A stored secret is only ever sent to (or signs for) the host it was given for: a webhook
    /// whose URL moves to another scheme, host or port, or whose format changes, must come with
    /// its secret again.
    @Test func aWebhookThatMovesHostMustBringItsSecretAgain() async throws {
        let matrix = """
              - id: db-matrix
                url: http://127.0.0.1:9/_matrix/client/v3/rooms/room1
                format: matrix
                secret: {env: MATRIX_TOKEN}

            """
        let original = RandomDefinition.fixed.replacingOccurrences(
            of: RandomDefinition.chatHook, with: RandomDefinition.chatHook + matrix)
        try await withServer(now: Self.now) { harness in
            try await Self.withClient(harness) { client in
                _ = try await Self.apply(client, original)
                // The file's secrets taken out (as an export writes it), the hosts changed.
                let moved = original.replacingOccurrences(of: "    secret: {env: HOOK_SECRET}\n", with: "")
                    .replacingOccurrences(of: "    secret: {env: MATRIX_TOKEN}\n", with: "")
                    .replacingOccurrences(of: "http://127.0.0.1:9/hook", with: "http://localhost:8080/hook")
                    .replacingOccurrences(of: "http://127.0.0.1:9/_matrix", with: "https://127.0.0.1:9/_matrix")
                for planOnly in [true, false] {
                    do {
                        _ = try await Self.apply(client, moved, planOnly: planOnly)
                        Issue.record("a webhook moved host keeping its secret (plan only: \(planOnly))")
                    } catch RosterClientError.server(let body) {
                        let places = body.violations.map { "\($0.location) \($0.field)" }
                        #expect(places == ["webhooks[0] secret", "webhooks[2] secret"], "\(body.violations)")
                        #expect(
                            body.violations.first?.description_p.contains(
                                "from http://127.0.0.1:9 to http://localhost:8080") == true)
                        #expect(body.violations.last?.description_p.contains("to https://127.0.0.1:9") == true)
                    }
                }
                #expect(
                    try await client.webhooks().first { $0.id == "db-hook" }?.url == "http://127.0.0.1:9/hook",
                    "nothing was changed")
                // Given again, the move is taken; a new path on the same host keeps the secret.
                let withSecrets = original.replacingOccurrences(
                    of: "http://127.0.0.1:9/hook", with: "http://localhost:8080/hook"
                )
                .replacingOccurrences(of: "http://127.0.0.1:9/_matrix", with: "https://127.0.0.1:9/_matrix")
                #expect(try await Self.apply(client, withSecrets).committed)
                let samePlace = withSecrets.replacingOccurrences(of: "    secret: {env: HOOK_SECRET}\n", with: "")
                    .replacingOccurrences(of: "http://localhost:8080/hook", with: "http://LOCALHOST:8080/other-hook")
                #expect(try await Self.apply(client, samePlace).committed)
                // A changed format with the old secret is refused too: a signing secret is no bot token.
                let reformatted = samePlace.replacingOccurrences(
                    of: "    url: http://LOCALHOST:8080/other-hook\n",
                    with: "    url: http://LOCALHOST:8080/_matrix/client/v3/rooms/r2\n    format: matrix\n")
                await #expect(throws: RosterClientError.self) {
                    _ = try await Self.apply(client, reformatted, planOnly: true)
                }
            }
        }
        // ROSTER_* variables (roster-client's token among them) are never a file's secret.
        do throws(DefinitionFile.Problems) {
            _ = try DefinitionFile.parse(
                "version: 1\nwebhooks:\n  - url: https://hooks.example/x\n    secret: {env: ROSTER_TOKEN}\n",
                path: "roster.yaml"
            ) { _ in "rst_the_cli_token" }
            Issue.record("{env: ROSTER_TOKEN} was taken")
        } catch {
            #expect("\(error)".contains("ROSTER_TOKEN is one of roster-client's own settings"), "\(error)")
        }
    }

    /// A password in a webhook's URL is never shown by a plan, and the masked form an export
    /// writes (https://***@host/) means "keep the stored one", not a new password of ***.
    @Test func aPasswordInAWebhookURLIsNeitherShownNorLostByAnExport() async throws {
        let withPassword = RandomDefinition.fixed.replacingOccurrences(
            of: "http://127.0.0.1:9/hook", with: "http://ops:hunter2@127.0.0.1:9/hook")
        try await withServer(now: Self.now) { harness in
            try await Self.withClient(harness) { client in
                let first = try await Self.apply(client, withPassword)
                #expect(!"\(first)".contains("hunter2"), "the plan shows no password")
                let changed = try await Self.apply(
                    client, withPassword.replacingOccurrences(of: "hunter2", with: "swordfish"), planOnly: true)
                #expect(!"\(changed)".contains("hunter2") && !"\(changed)".contains("swordfish"))
                #expect(
                    Self.made(changed).first?.fields.map(\.field) == ["url"],
                    "a new password is still a change: \(changed)")
                // The export writes the masked form; applied as it is, it changes nothing.
                let exported = try await Self.export(client, now: Self.now)
                #expect(exported.contains("***@127.0.0.1:9/hook") && !exported.contains("hunter2"), "\(exported)")
                let again = try await Self.apply(client, exported, planOnly: true)
                #expect(Self.made(again).isEmpty, "\(Self.made(again))")
                let database = try harness.openStoreFile()
                let urls = try await database.read { try String.fetchAll($0, sql: "SELECT url FROM webhook") }
                try database.close()
                #expect(urls.contains("http://ops:hunter2@127.0.0.1:9/hook"), "\(urls)")
                // A masked URL for a webhook the store does not have is refused: *** is no password.
                let stranger = withPassword.replacingOccurrences(
                    of: "ops:hunter2@127.0.0.1:9/hook", with: "***@127.0.0.1:9/other"
                )
                .replacingOccurrences(of: "id: db-hook", with: "id: db-other")
                await #expect(throws: RosterClientError.self) {
                    _ = try await Self.apply(client, stranger, planOnly: true)
                }
            }
        }
    }

    @Test func aNewNameInTheFileIsARenameAndPruneDeletesWhatTheFileDropped() async throws {
        try await withServer(now: Self.now) { harness in
            try await Self.withClient(harness) { client in
                _ = try await Self.apply(client, RandomDefinition.fixed)
                let renamed = RandomDefinition.fixed.replacingOccurrences(of: "Database", with: "Databases")
                let plan = try await Self.apply(client, renamed)
                let change = try #require(Self.made(plan).first)
                #expect(
                    Self.made(plan).count == 1 && change.kind == "schedule" && change.action == .change
                        && change.id == "db")
                #expect(change.fields.map(\.field) == ["name"] && change.fields.first?.after == "Databases")
                #expect(try await client.refreshCache().state.schedules["db"]?.name == "Databases")
                // Dropped from the file: kept, then deleted with --prune (the webhook's announcement too).
                let fewer = RandomDefinition.fixed.replacingOccurrences(of: RandomDefinition.chatHook, with: "")
                    .replacingOccurrences(of: RandomDefinition.announcement, with: "").replacingOccurrences(
                        of: "Database", with: "Databases")
                let kept = try await Self.apply(client, fewer, planOnly: true)
                #expect(Set(kept.changes.filter { $0.action == .notInFile }.map(\.id)) == ["db-chat", "db-monday"])
                let pruned = try await Self.apply(client, fewer, prune: true)
                #expect(Set(Self.made(pruned).filter { $0.action == .delete }.map(\.id)) == ["db-chat", "db-monday"])
                let (hooks, posts) = (try await client.webhooks(), try await client.announcements())
                #expect(hooks.map(\.id) == ["db-hook"] && posts.isEmpty)
                // The audit log has each apply as one change, with the webhooks and rules it wrote.
                let audit = try await client.audit(AuditQuery()).entries.filter { $0.kind == "change" }
                #expect(
                    audit.last?.wire.revision == pruned.revision
                        && audit.last?.wire.reason == "apply of a definition: 2 deleted", "\(audit.map(\.wire))")
                #expect(
                    audit.last?.wire.detail == "webhook db-chat deleted: http://127.0.0.1:9/slack; "
                        + "announcement db-monday deleted: Databases to webhook db-chat at 09:00 on Mon",
                    "\(audit.last?.wire.detail ?? "")")
                #expect(audit.first?.wire.detail.contains("webhook db-hook created: http://127.0.0.1:9/hook") == true)
            }
        }
    }
}

/// Random definition files: people, schedules in several zones with layered rotations
/// (restrictions, shared turns, both time-off policies, ends), standing overrides, webhooks with
/// secrets by reference, reminders and announcements.
enum RandomDefinition {
    static let names = [
        "Ada Lovelace", "Alan Turing", "Grace Hopper", "Linus Torvalds", "Barbara Liskov", "Edsger Dijkstra",
        "Radia Perlman", "Ken Thompson", "Håkon Wium Lie", "Frances Allen",
    ]
    static let zones = ["UTC", "Europe/Berlin", "America/Chicago", "Australia/Lord_Howe", "America/Santiago"]
    static let cadences = ["12h", "1d", "1w", "2w", "1mo", "90m"]
    static let restrictions = [
        "Mon-Fri 09:00-17:00", "22:00-06:00", "Sat,Sun 10:00-14:00", "first Monday of every 2 months 09:00-12:00",
    ]

    static func yaml(_ random: inout Xoshiro, now: UnixMillis) -> String {
        let people = Array(names.shuffled(using: &random).prefix(Int.random(in: 4...8, using: &random)))
        var text = "version: 1\npeople:\n"
        var teams: [String] = []
        for (index, name) in people.enumerated() {
            let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
            text += "  - id: p\(index)\n    firstName: \(parts[0])\n    lastName: \(parts[1])\n"
            if Bool.random(using: &random) {
                teams.append("Team #\(index): on call")
                text += "    team: \"\(teams.last!)\"\n"
            }
        }
        text += "schedules:\n"
        let scheduleCount = Int.random(in: 1...3, using: &random)
        for s in 0..<scheduleCount {
            text +=
                "  - id: s\(s)\n    name: Schedule \(s)\n    zone: \(zones.randomElement(using: &random)!)\n    layers:\n"
            for level in 0..<Int.random(in: 1...2, using: &random) {
                text += "      - level: \(level)\n        rotations:\n"
                for r in 0..<Int.random(in: 1...2, using: &random) {
                    var slots: [String] = []
                    for _ in 0..<Int.random(in: 2...4, using: &random) {
                        let pick = people.shuffled(using: &random)
                        slots.append(Int.random(in: 0..<5, using: &random) == 0 ? "[\(pick[0]), \(pick[1])]" : pick[0])
                    }
                    let (month, day) = (Int.random(in: 9...11, using: &random), Int.random(in: 1...28, using: &random))
                    text +=
                        "          - id: s\(s)-l\(level)-r\(r)\n            people: [\(slots.joined(separator: ", "))]\n"
                    text += "            every: \"\(cadences.randomElement(using: &random)!)\"\n"
                    text += String(
                        format: "            handoff: \"2026-%02d-%02dT%02d:00\"\n", month, day,
                        Int.random(in: 0...23, using: &random))
                    if level > 0 || Bool.random(using: &random) {
                        text += "            restrictions: [\"\(restrictions.randomElement(using: &random)!)\"]\n"
                    }
                    if Bool.random(using: &random) { text += "            advance: calendar\n" }
                    if Bool.random(using: &random) { text += "            onTimeOff: skip\n" }
                    if Int.random(in: 0..<4, using: &random) == 0 {
                        text +=
                            "            end: \"\(TimeText.iso8601(now + Int64.random(in: 10...60, using: &random) * 86_400_000))\"\n"
                    }
                }
            }
            text += "    overrides:\n"
            for o in 0..<Int.random(in: 0...2, using: &random) {
                let start = now + Int64(o * 10 + Int.random(in: 1...8, using: &random)) * 86_400_000
                let pick = people.shuffled(using: &random)
                text +=
                    "      - id: s\(s)-o\(o)\n        add: \(pick[0])\n        from: \"\(TimeText.iso8601(start))\"\n"
                text +=
                    "        to: \"\(TimeText.iso8601(start + 3_600_000 * Int64.random(in: 1...30, using: &random)))\"\n        reason: \"cover: #\(o)\"\n"
            }
        }
        text += escalation(&random, people: people, schedules: scheduleCount, teams: teams)
        text +=
            "webhooks:\n  - id: hook\n    url: http://127.0.0.1:9/hook\n    events: [on-duty.changed]\n    schedules: [Schedule 0]\n"
        text +=
            "    secret: {env: HOOK_SECRET}\n  - id: chat\n    url: http://127.0.0.1:9/chat\n    format: mattermost\n"
        text += "reminders:\n  - id: remind\n    schedule: Schedule 0\n    before: 15m\n"
        if Bool.random(using: &random) {
            text +=
                "  - id: evening\n    person: \(people[0])\n    daysBefore: 1\n    at: \"18:00\"\n    zone: Europe/Berlin\n"
        }
        text += "announcements:\n  - id: post\n    schedule: Schedule 0\n    webhook: chat\n"
        text += Bool.random(using: &random) ? "    onChange: true\n" : "    at: \"09:00\"\n    weekdays: Mon-Fri\n"
        return text
    }

    /// Escalation policies naming people, schedules and teams by name (some without an id), and
    /// services naming their policy by name.
    static func escalation(_ random: inout Xoshiro, people: [String], schedules: Int, teams: [String]) -> String {
        var text = "escalationPolicies:\n"
        let policies = Int.random(in: 1...3, using: &random)
        for p in 0..<policies {
            text += (Bool.random(using: &random) ? "  - id: pol-\(p)\n    name: " : "  - name: ") + "Policy \(p)\n"
            if Bool.random(using: &random) { text += "    repeat: \(Int.random(in: 0...3, using: &random))\n" }
            text += "    steps:\n"
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                text += "      - delayMinutes: \(Int.random(in: 1...60, using: &random))\n"
                if Bool.random(using: &random) { text += "        strategy: round_robin\n" }
                text += "        targets:\n"
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: text += "          - person: \(people.randomElement(using: &random)!)\n"
                    case 1 where !teams.isEmpty:
                        text += "          - team: \"\(teams.randomElement(using: &random)!)\"\n"
                    default: text += "          - schedule: Schedule \(Int.random(in: 0..<schedules, using: &random))\n"
                    }
                }
            }
        }
        text += "services:\n"
        for s in 0..<Int.random(in: 0...3, using: &random) {
            text += "  - name: Service \(s)\n    policy: Policy \(Int.random(in: 0..<policies, using: &random))\n"
            if Bool.random(using: &random) {
                text += "    links:\n      - title: Runbook\n        url: https://runbooks.example/\(s)\n"
            }
        }
        return text
    }

    /// The same file with the first rotation's turns in another order, if it has two that differ.
    static func reordered(_ text: String) -> String? {
        guard
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).first(where: {
                $0.contains("people: [")
            }),
            let open = line.firstIndex(of: "[")
        else { return nil }
        let inside = line[line.index(after: open)..<line.index(before: line.endIndex)]
        // Shared turns ("[a, b]") are kept whole: split on ", " outside brackets.
        var slots: [String] = [], depth = 0, current = ""
        for character in inside {
            if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
            if character == ",", depth == 0 {
                slots.append(current.trimmingCharacters(in: .whitespaces)); current = ""; continue
            }
            current.append(character)
        }
        slots.append(current.trimmingCharacters(in: .whitespaces))
        guard slots.count >= 2, Set(slots).count == slots.count else { return nil }
        slots = slots.reversed()
        let replaced = line[..<open] + "[" + slots.joined(separator: ", ") + "]"
        return text.replacingOccurrences(of: String(line), with: String(replaced))
    }

    static let chatHook = "  - id: db-chat\n    url: http://127.0.0.1:9/slack\n    format: slack\n"
    static let announcement = "  - id: db-monday\n    schedule: Database\n    webhook: db-chat\n    at: \"Mon 09:00\"\n"

    /// A small fixed file: a person section, one schedule with a rotation and an override, two
    /// webhooks, a reminder and an announcement.
    static let fixed = """
        version: 1
        people:
          - id: ada
            firstName: Ada
            lastName: Lovelace
          - id: alan
            firstName: Alan
            lastName: Turing
          - id: grace
            firstName: Grace
            lastName: Hopper
        schedules:
          - id: db
            name: Database
            zone: Europe/Berlin
            layers:
              - level: 0
                rotations:
                  - id: db-weekly
                    people: [Ada Lovelace, Alan Turing, Grace Hopper]
                    every: 1w
                    handoff: "2026-11-02T09:00"
            overrides:
              - id: db-xmas
                replace: Ada Lovelace
                with: Grace Hopper
                from: "2026-12-24T08:00:00Z"
                to: "2026-12-27T08:00:00Z"
        webhooks:
          - id: db-hook
            url: http://127.0.0.1:9/hook
            secret: {env: HOOK_SECRET}
        \(chatHook)reminders:
          - id: db-remind
            schedule: Database
            before: 15m
        announcements:
        \(announcement)
        """
}
