import Foundation
import RosterAsCode
import RosterDomain
import RosterProtocol
import RosterTestSupport
import Testing

/// The definition file format (docs/AS-CODE.md) on its own: what export writes, parse reads back
/// exactly, whatever the text holds; every problem of a file at its line and column; anchors
/// refused; secrets only by reference.
@Suite(.timeLimit(.minutes(10))) struct DefinitionFileTests {
    static func parse(_ text: String, secrets: [SecretReference: String] = [:]) throws(DefinitionFile.Problems)
        -> DefinitionFile
    {
        try DefinitionFile.parse(text, path: "roster.yaml") { secrets[$0] }
    }

    static func problems(_ text: String) -> [String] {
        do throws(DefinitionFile.Problems) {
            _ = try parse(text)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// Texts a YAML writer gets wrong when it writes them plainly.
    static let awkward = [
        "yes", "No", "null", "~", "123", "1e3", "0x1F", "2026-11-30T09:00", "- dash", "key: value", "a #hash",
        "trailing ", " leading", "'single'", "\"double\"", "back\\slash", "tab\there", "line\nbreak", "[list]",
        "{map}", "&anchor", "*alias", "!tag", "%directive", "@at", "`tick`", "Håkon Wium Lie", "Zoë 🚀", "日本語",
        "?", ":", "", "O'Brien", "a: b: c", "100%",
    ]

    static func words(_ random: inout some RandomNumberGenerator) -> String {
        if Bool.random(using: &random) { return awkward.randomElement(using: &random)! }
        let pieces = awkward + ["Ada", " ", "-", ":", "#", "\"", "'", "\\", "é", "\u{2028}"]
        return (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test func whatExportWritesParseReadsBackExactly() throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<200 {
            var first = Self.words(&random), last = Self.words(&random)
            if first.isEmpty { first = "F" }
            if last.isEmpty { last = "L" }
            let person = Employee(
                id: "p\(round)", firstName: first, lastName: last, email: Self.words(&random),
                team: Self.words(&random),
                projects: [Self.words(&random), Self.words(&random)], biography: Self.words(&random),
                chat: ["slack": Self.words(&random)])
            var schedule = ScheduleDefinition(
                id: "s\(round)", name: Self.words(&random), zone: "Europe/Berlin", team: Self.words(&random),
                description: Self.words(&random))
            schedule.layers = [
                ScheduleLayer(
                    level: 2,
                    rotations: [
                        Rotation(
                            id: "r\(round)", slots: [[person.id], [person.id, person.id]], cadence: .weeks(2),
                            handoff: LocalDateTime(year: 2026, month: 11, day: 30, hour: 9, minute: 0),
                            restrictions: [
                                RestrictionWindow(
                                    weekdays: [2, 3, 4, 5, 6], start: 540, end: 1020, exceptHolidays: "Berlin"),
                                RestrictionWindow(
                                    start: 60, end: 120, monthly: MonthlyDays(nth: -1, weekday: 6, everyMonths: 3)),
                            ],
                            advance: .calendar, slotOffset: 1, onTimeOff: .skip)
                    ])
            ]
            schedule.overrides = [
                ScheduleOverride(
                    id: "o\(round)", kind: .replace(replacing: person.id, with: person.id), start: 1_800_000_000_000,
                    end: 1_800_003_600_000, reason: Self.words(&random))
            ]
            let state = RosterState(tenant: Tenant(id: "t", name: "t"), employees: [person], schedules: [schedule])
            let written = DefinitionExport.yaml(state, settings: .init(), now: 1_790_000_000_000)
            let file: DefinitionFile
            do throws(DefinitionFile.Problems) { file = try Self.parse(written) } catch {
                Issue.record("export wrote what parse refuses:\n\(error)\n\(written)")
                continue
            }
            let read = try #require(file.document.people.first)
            #expect(Employee(read) == person, "\(written)")
            let wire = try #require(file.document.schedules.first)
            #expect(
                (wire.name, wire.team, wire.description_p) == (schedule.name, schedule.team, schedule.description),
                "\(written)")
            var rotation = Rotation(try #require(wire.layers.first?.rotations.first))
            // Names in the file are the people's full names (ids where the name is ambiguous).
            rotation.slots = rotation.slots.map { $0.map { $0 == person.fullName ? person.id : $0 } }
            #expect(
                rotation == schedule.layers[0].rotations[0] && wire.layers.first?.level == 2,
                "\(rotation)\n\(schedule.layers[0].rotations[0])")
            var override = ScheduleOverride(try #require(wire.overrides.first))
            override.kind = .replace(replacing: person.id, with: person.id)
            #expect(override == schedule.overrides[0], "\(written)")
        }
    }

    @Test func everyProblemOfAFileIsReportedAtOnceWithItsLineAndColumn() {
        let found = Self.problems(
            """
            version: 2
            people:
              - firstName: Ada
                nickname: Countess
            schedules:
              - name: Database
                readersMayVolunteer: maybe
                layers:
                  - level: high
                    rotations:
                      - people: Ada Lovelace
                        every: 1 fortnight
                        handoff: tomorrow
                        advance: sometimes
                overrides:
                  - add: Ada Lovelace
                    with: Alan Turing
                    from: noon
                    to: "2026-12-01T09:00:00Z"
            reminders:
              - schedule: Database
            """)
        #expect(
            found == [
                "roster.yaml:1:10: version must be a whole number from 1 to 1",
                "roster.yaml:4:5: people[0]: unknown key \"nickname\" (known: id, firstName, lastName, email, phone, position, team, projects, biography, photoURL, type, chat)",
                "roster.yaml:3:5: people[0] needs lastName",
                "roster.yaml:7:26: schedules[0].readersMayVolunteer must be true or false",
                "roster.yaml:9:16: schedules[0].layers[0].level must be a whole number from -1000 to 1000",
                "roster.yaml:11:21: schedules[0].layers[0].rotations[0].people must be a list (items starting with -)",
                "roster.yaml:12:20: schedules[0].layers[0].rotations[0].every: \"1 fortnight\": the unit must be m, h, d, w or mo (e.g. 1w)",
                "roster.yaml:13:22: schedules[0].layers[0].rotations[0].handoff: \"tomorrow\" is not a local date-time: use YYYY-MM-DDTHH:MM in the schedule's zone, e.g. 2026-11-30T09:00",
                "roster.yaml:14:22: schedules[0].layers[0].rotations[0].advance is active-turns or calendar",
                "roster.yaml:16:9: schedules[0].overrides[0] is one of: replace and with, add, or remove",
                "roster.yaml:18:15: schedules[0].overrides[0].from \"noon\" is not an instant: write e.g. 2026-12-24T09:00:00Z or 2026-12-24T10:00:00+01:00",
                "roster.yaml:21:5: reminders[0] has either before (e.g. 15m) or daysBefore and at (e.g. 1 and 18:00)",
            ], "\(found.joined(separator: "\n"))")
        #expect(
            Self.problems("version: 1\nschedules: [\n").first?.hasPrefix("roster.yaml:3:1: is not YAML here") == true,
            "\(Self.problems("version: 1\nschedules: [\n"))")
        #expect(Self.problems("") == ["roster.yaml: is empty: it needs at least `version: 1`"])
        #expect(
            Self.problems(String(repeating: "#", count: DefinitionFile.maxBytes + 1)) == [
                "roster.yaml: is larger than 8 MiB"
            ])
    }

    @Test func anchorsAndAliasesAreRefusedSoNoFileExpandsPastItsSize() {
        // A "billion laughs" file: each alias would double the work.
        var text = "version: 1\npeople:\n  - &a {firstName: A, lastName: B}\n"
        text += "schedules:\n  - &s0 {name: S, layers: [{rotations: []}]}\n"
        for level in 1...30 { text += "  - &s\(level) [*s\(level - 1), *s\(level - 1)]\n" }
        let found = Self.problems(text)
        #expect(
            !found.isEmpty
                && found.allSatisfy { $0.contains("anchors and aliases (&, *) are not used in roster files") },
            "\(found)")
        #expect(found.count <= 40, "each anchored node is refused once, not expanded: \(found.count)")
    }

    @Test func secretsAreReadFromTheirReferenceAndNeverFromTheFile() throws {
        let webhook = "version: 1\nwebhooks:\n  - url: https://hooks.example.com/x\n    secret: "
        let fromEnvironment = try Self.parse(
            webhook + "{env: HOOK}", secrets: [.environment("HOOK"): "s3cret-from-env\n"])
        #expect(
            fromEnvironment.document.webhooks.first?.accessToken == "s3cret-from-env"
                && fromEnvironment.document.managesWebhooks)
        let fromFile = try Self.parse(
            webhook + "{file: hook.secret}", secrets: [.file("hook.secret"): "s3cret-from-file"])
        #expect(fromFile.document.webhooks.first?.accessToken == "s3cret-from-file")
        #expect(
            Self.problems(webhook + "{env: UNSET}") == [
                "roster.yaml:4:13: webhooks[0].secret: the environment variable UNSET is not set or cannot be read"
            ])
        #expect(
            Self.problems(webhook + "inline") == [
                "roster.yaml:4:13: webhooks[0].secret: a secret is never written in the file: name it with {env: VARIABLE} or {file: PATH}"
            ])
        #expect(Self.problems(webhook + "{env: A, file: b}").contains { $0.contains("one of them") })
        // A section left out is left alone; one given empty is managed (and pruned) as empty.
        let sections = try Self.parse("version: 1\nwebhooks: []\nreminders:\n").document
        #expect(
            sections.managesWebhooks && sections.managesReminders && !sections.managesPeople
                && !sections.managesAnnouncements)
    }
}
