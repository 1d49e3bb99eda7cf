import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterTestSupport
import Testing

/// Personal tokens over the protocol (docs/SSO.md): a person makes their own, read-only or for
/// their own actions, optionally on some schedules; the limits hold on the wire; a personal token
/// makes none; each person lists and revokes their own, an admin everyone's; bad values and the
/// per-person cap get typed errors.
@Suite(.timeLimit(.minutes(10))) struct PersonalTokensTests {
    static func tokens(_ connection: RosterConnection, _ request: Roster_V1_PersonalTokensRequest) async throws
        -> Roster_V1_PersonalTokensResponse
    {
        guard case .personalTokensResult(let answer) = try await connection.request(.personalTokens(request)) else {
            throw TestFailure("expected PersonalTokensResult")
        }
        return answer
    }

    static func create(
        _ connection: RosterConnection, readOnly: Bool = false, schedules: [String] = [], expiresIn: Int64 = 0
    ) async throws -> Roster_V1_PersonalTokensResponse {
        try await tokens(
            connection,
            .with {
                $0.create = .with {
                    $0.label = "script"; $0.readOnly = readOnly; $0.schedules = schedules; $0.expiresInS = expiresIn
                }
            })
    }

    /// Grace volunteers for a day of `schedule` in place of Ada.
    static func volunteer(_ schedule: String) -> RosterMessage {
        .editSchedule(
            .with {
                $0.schedule = schedule
                $0.addOverride = .with {
                    $0.kind = .replace; $0.employeeID = "Grace Hopper"; $0.replacedEmployeeID = "Ada Lovelace"
                    $0.startMs = TimeText.parseISO8601("2026-12-01T00:00:00Z")!
                    $0.endMs = TimeText.parseISO8601("2026-12-02T00:00:00Z")!
                }
            })
    }

    @Test func aPersonsTokensKeepTheirLimitsAndAreHersToListAndRevoke() async throws {
        try await withServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) { harness in
            let team = try await ScheduleServerTests.team(harness)
            let database = try await ScheduleServerTests.schedule(
                "Database", team.admin, zone: "UTC",
                every: .with {
                    $0.unit = .weeks; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            for (id, name) in [(team.scheduleID, "Platform primary"), (database, "Database")] {
                try await team.admin.admin(
                    .editSchedule(
                        .with {
                            $0.upsertSchedule = .with {
                                $0.id = id; $0.name = name; $0.zone = "UTC"; $0.readersMayVolunteer = true
                            }
                        }))
            }
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let graceLogin = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, employee: "Grace Hopper"
            ).text
            let alanLogin = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, employee: "Alan Turing"
            ).text
            #expect(await eventually(60) { (try? await harness.connect(token: alanLogin)) != nil })
            #expect(await eventually(60) { (try? await harness.connect(token: graceLogin)) != nil })
            let grace = try await harness.connect(token: graceLogin)

            // Read only: reads, and acts on nothing.
            let light = try await Self.create(grace, readOnly: true)
            #expect(light.token.hasPrefix("rst_") && light.tokens.first?.readOnly == true)
            #expect(light.tokens.first?.expiresMs == t0 + 90 * 86_400_000, "90 days by default")
            let asLight = try await harness.connect(token: light.token)
            guard case .onDuty = try await asLight.request(.getOnDuty(.init())) else {
                throw TestFailure("a read-only token reads")
            }
            let readOnly = try await ScheduleServerTests.refusal(asLight, Self.volunteer("Platform primary"))
            #expect(readOnly.code == .permissionDenied && readOnly.message.contains("may only read"))
            #expect(
                try await Self.tokens(asLight, .with { $0.list = true }).tokens.isEmpty,
                "a personal token lists none: its person's are listed with their own login")

            // Own actions on one schedule.
            let scoped = try await Self.create(grace, schedules: ["platform primary"])
            #expect(scoped.tokens.first?.schedules == [team.scheduleID])
            let asScoped = try await harness.connect(token: scoped.token)
            let elsewhere = try await ScheduleServerTests.refusal(asScoped, Self.volunteer("Database"))
            #expect(elsewhere.code == .permissionDenied && elsewhere.message.contains("acts only on Platform primary"))
            let done = try await asScoped.admin(Self.volunteer("Platform primary"))
            #expect(done.revision > 0)
            let again = try await ScheduleServerTests.refusal(asScoped, .personalTokens(.with { $0.create = .init() }))
            #expect(again.code == .permissionDenied, "a personal token makes no other")

            // Hers to list and revoke; Alan sees none and revokes none of them; an admin sees all.
            let mine = try await Self.tokens(grace, .with { $0.list = true }).tokens
            #expect(Set(mine.map(\.tokenID)) == Set([light, scoped].compactMap { $0.tokens.first?.tokenID }))
            let alan = try await harness.connect(token: alanLogin)
            #expect(try await Self.tokens(alan, .with { $0.list = true }).tokens.isEmpty)
            let lightID = try #require(light.tokens.first?.tokenID)
            #expect(
                try await ScheduleServerTests.refusal(alan, .personalTokens(.with { $0.revoke = lightID })).code
                    == .notFound)
            #expect(try await Self.tokens(team.admin, .with { $0.list = true }).tokens.count == 2)
            _ = try await Self.tokens(team.admin, .with { $0.revoke = lightID })
            await asLight.closed()
            await #expect(throws: RosterClientError.self) { _ = try await harness.connect(token: light.token) }
            #expect(try await Self.tokens(grace, .with { $0.list = true }).tokens.map(\.tokenID) != [lightID])

            // Bad values, and the cap: typed errors, nothing made.
            #expect(
                try await ScheduleServerTests.refusal(
                    grace, .personalTokens(.with { $0.create = .with { $0.expiresInS = 60 } })
                )
                .code == .invalidArgument)
            #expect(
                try await ScheduleServerTests.refusal(
                    grace, .personalTokens(.with { $0.create = .with { $0.schedules = ["Nowhere"] } })
                ).code == .notFound)
            let anonymous = try await harness.connect(token: "")
            #expect(
                try await ScheduleServerTests.refusal(anonymous, .personalTokens(.with { $0.create = .init() })).code
                    == .permissionDenied)
            for _ in 0..<19 { _ = try await Self.create(grace) }
            let capped = try await ScheduleServerTests.refusal(grace, .personalTokens(.with { $0.create = .init() }))
            #expect(capped.code == .resourceExhausted, "\(capped.message)")
            for connection in [grace, alan, asScoped, anonymous, team.admin] { await connection.close() }
        }
    }

    /// The same from the web app's /me/tokens, with curl as the browser.
    @Test func aSignedInPersonMakesAndRevokesATokenInTheWebApp() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) {
            harness, base in
            let admin = try await harness.connect()
            _ = try await admin.addEmployee("Grace", "Hopper")
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let graceLogin = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, employee: "Grace Hopper"
            ).text
            #expect(await eventually(60) { (try? await harness.connect(token: graceLogin)) != nil })
            try await WebScheduleTests.withBrowser(base) { browser in
                #expect(try await browser.signIn(graceLogin).status == 303)
                let empty = try await browser.get("/me/tokens")
                #expect(empty.status == 200 && empty.body.contains("No tokens."), "\(empty.body)")
                let csrf = try browser.csrf(empty)
                let tooLong = try await browser.post(
                    "/me/tokens", [("csrf", csrf), ("label", "x"), ("days", "400"), ("read_only", "1")])
                #expect(tooLong.status == 400 && tooLong.body.contains("1 to 365 days"))
                let made = try await browser.post(
                    "/me/tokens", [("csrf", csrf), ("label", "status light"), ("days", "30"), ("read_only", "1")])
                #expect(made.status == 200, "\(made.body)")
                let marker = try #require(made.body.range(of: "<code id=\"token\">"), "\(made.body)")
                let token = String(made.body[marker.upperBound...].prefix { $0 != "<" })
                #expect(token.hasPrefix("rst_"))
                let asLight = try await harness.connect(token: token)
                let readOnly = try await ScheduleServerTests.refusal(
                    asLight,
                    .editSchedule(
                        .with {
                            $0.timeOff = .with {
                                $0.action = .add; $0.person = "Grace Hopper"; $0.startMs = t0 + 86_400_000
                                $0.endMs = t0 + 2 * 86_400_000
                            }
                        }))
                #expect(readOnly.code == .permissionDenied, "made read-only in the form")
                let listed = try await browser.get("/me/tokens")
                let id = try #require(token.split(separator: "_").dropFirst().first.map(String.init))
                #expect(listed.body.contains(id) && listed.body.contains("status light"), "\(listed.body)")
                let revoked = try await browser.post(
                    "/me/tokens/revoke", [("csrf", try browser.csrf(listed)), ("id", id)])
                #expect(revoked.status == 303)
                #expect(try await browser.get("/me/tokens").body.contains("No tokens."))
                let forged = try await browser.post("/me/tokens", [("csrf", "forged"), ("days", "30")])
                #expect(forged.status == 403, "a forged post makes nothing")
                await asLight.closed()
            }
            await admin.close()
        }
    }
}
