import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// Schedules through a real server: EditSchedule, the final schedule, per-schedule pushes.
@Suite(.timeLimit(.minutes(10))) struct ScheduleServerTests {
    static let day: Int64 = 86_400_000

    /// Four people, and a schedule "Platform primary" in Berlin with a weekly rotation of them
    /// handing off Mondays 09:00.
    struct Team {
        var admin: RosterConnection
        var ada, alan, grace, linus: String
        var scheduleID: String
    }

    static func team(
        _ harness: ServerHarness, zone: String = "Europe/Berlin",
        every: Roster_V1_Cadence = .with {
            $0.unit = .weeks; $0.count = 1
        }, handoff: String = "2026-11-30T09:00"
    ) async throws -> Team {
        let admin = try await harness.connect(token: harness.adminToken)
        let ada = try await admin.addEmployee("Ada", "Lovelace")
        let alan = try await admin.addEmployee("Alan", "Turing")
        let grace = try await admin.addEmployee("Grace", "Hopper")
        let linus = try await admin.addEmployee("Linus", "Torvalds")
        let id = try await schedule("Platform primary", admin, zone: zone, every: every, handoff: handoff)
        return Team(admin: admin, ada: ada, alan: alan, grace: grace, linus: linus, scheduleID: id)
    }

    /// A schedule with one rotation of the four, in that order.
    static func schedule(
        _ name: String, _ admin: RosterConnection, zone: String, every: Roster_V1_Cadence,
        handoff: String
    ) async throws -> String {
        let created = try await admin.admin(
            .editSchedule(
                .with {
                    $0.upsertSchedule = .with {
                        $0.name = name; $0.zone = zone
                    }
                }))
        try await admin.admin(
            .editSchedule(
                .with {
                    $0.schedule = name
                    $0.upsertRotation = .with {
                        $0.rotation = .with {
                            $0.cadence = every
                            $0.handoff = handoff
                            $0.slots = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Linus Torvalds"].map { name in
                                .with { $0.employeeIds = [name] }
                            }
                        }
                    }
                }))
        return created.ids[0]
    }

    /// The server's Error for a request it refuses.
    static func refusal(_ connection: RosterConnection, _ message: RosterMessage) async throws -> Roster_V1_Error {
        do {
            let answer = try await connection.request(message)
            Issue.record("expected a refusal, got \(answer)")
            return Roster_V1_Error()
        } catch RosterClientError.server(let error) {
            return error
        }
    }

    static func final(_ connection: RosterConnection, _ schedule: String, from: String, to: String) async throws
        -> [Roster_V1_ResolvedShift]
    {
        let answer = try await connection.request(
            .getFinalSchedule(
                .with {
                    $0.schedule = schedule
                    $0.fromMs = TimeText.parseISO8601(from)!
                    $0.toMs = TimeText.parseISO8601(to)!
                }))
        guard case .finalSchedule(let body) = answer else {
            Issue.record("expected FinalSchedule: \(answer)"); return []
        }
        return body.shifts
    }

    @Test func theAcceptanceScenarioResolvesWeeklyTurnsAndTheOverrideWithItsSource() async throws {
        try await withServer(now: TimeText.parseISO8601("2026-11-23T12:00:00Z")!) { harness in
            let team = try await Self.team(harness)
            let override = try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.addOverride = .with {
                            $0.kind = .replace; $0.replacedEmployeeID = "Ada Lovelace"; $0.employeeID = "Alan Turing"
                            $0.startMs = TimeText.parseISO8601("2026-12-02T00:00:00Z")!
                            $0.endMs = TimeText.parseISO8601("2026-12-03T00:00:00Z")!
                            $0.reason = "conference"
                        }
                    }))
            #expect(
                override.preview.map(\.employeeName) == ["Ada Lovelace", "Alan Turing"],
                "the committed edit says who moved")
            let shifts = try await Self.final(
                team.admin, "platform PRIMARY", from: "2026-11-30T00:00:00Z", to: "2027-01-04T00:00:00Z")
            let seen = shifts.map { [$0.employeeID, TimeText.iso8601($0.startMs), TimeText.iso8601($0.endMs)] }
            #expect(
                seen == [
                    [team.ada, "2026-11-30T08:00:00Z", "2026-12-02T00:00:00Z"],
                    [team.alan, "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z"],
                    [team.ada, "2026-12-03T00:00:00Z", "2026-12-07T08:00:00Z"],
                    [team.alan, "2026-12-07T08:00:00Z", "2026-12-14T08:00:00Z"],
                    [team.grace, "2026-12-14T08:00:00Z", "2026-12-21T08:00:00Z"],
                    [team.linus, "2026-12-21T08:00:00Z", "2026-12-28T08:00:00Z"],
                    [team.ada, "2026-12-28T08:00:00Z", "2027-01-04T00:00:00Z"],
                ])
            #expect(shifts[1].sourceID == override.ids.last, "Alan's day names the override")
            #expect(
                shifts.map(\.sourceKind) == [
                    .rotation, .override, .rotation, .rotation, .rotation, .rotation, .rotation,
                ])
            #expect(shifts.map(\.turn) == [0, 0, 0, 1, 2, 3, 4])
            #expect(Set(shifts.map(\.id)).count == shifts.count, "every resolved shift has its own id")
            #expect(shifts.allSatisfy { $0.employee.firstName.isEmpty == false })

            // The schedule carries the override with its author and reason.
            let listed = try await team.admin.request(.listSchedules(.init()))
            guard case .schedules(let schedules) = listed else { Issue.record("expected Schedules"); return }
            let platform = try #require(schedules.schedules.first { $0.name == "Platform primary" })
            #expect(schedules.schedules.first?.id == ScheduleDefinition.defaultID)
            #expect(
                platform.overrides.first?.reason == "conference" && platform.overrides.first?.author.isEmpty == false)
            await team.admin.close()
        }
    }

    @Test func handoffsInsideTheChangedHourInChicagoLandWhereTheRulesSay() async throws {
        try await withServer(now: TimeText.parseISO8601("2027-03-01T00:00:00Z")!) { harness in
            let team = try await Self.team(
                harness, zone: "America/Chicago",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2027-03-10T02:30")
            let spring = try await Self.final(
                team.admin, team.scheduleID, from: "2027-03-14T00:00:00Z", to: "2027-03-15T00:00:00Z")
            #expect(
                spring.map { TimeText.iso8601($0.startMs) } == ["2027-03-14T00:00:00Z", "2027-03-14T08:00:00Z"],
                "02:30 does not exist on 2027-03-14: the handoff is at 03:00 CDT")
            let fall = try await Self.schedule(
                "Fall", team.admin, zone: "America/Chicago",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2027-11-01T01:30")
            let shifts = try await Self.final(
                team.admin, fall, from: "2027-11-07T00:00:00Z", to: "2027-11-08T00:00:00Z")
            #expect(
                shifts.map { TimeText.iso8601($0.startMs) } == ["2027-11-07T00:00:00Z", "2027-11-07T06:30:00Z"],
                "01:30 happens twice on 2027-11-07: the handoff is at its first occurrence (CDT)")
            await team.admin.close()
        }
    }

    @Test func aHandoffPushesOnDutyChangedNamingItsScheduleToThoseWhoFollowIt() async throws {
        try await withServer { harness in
            // A rotation handing off every minute from t0 (2026-01-01T00:00 UTC).
            let team = try await Self.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .minutes; $0.count = 1
                },
                handoff: "2026-01-01T00:00")
            #expect(
                await eventually(30) { harness.clock.armedInstants == [t0 + minute] },
                "one alarm for every schedule: the next handoff")

            let follower = try await harness.connect()
            let followerInbox = Inbox(follower)
            follower.subscribe(
                .with {
                    $0.topics = [.onDuty]; $0.allSchedules = true
                })
            let initial = try await followerInbox.untilSynced().compactMap { message -> Roster_V1_OnDutyChanged? in
                if case .onDutyChanged(let event) = message { return event }
                return nil
            }
            #expect(
                initial.map(\.scheduleName) == ["", "Platform primary"],
                "one INITIAL per schedule, the default one first")
            #expect(initial.last?.current.map(\.employee.id) == [team.ada])

            let old = try await harness.connect()
            let oldInbox = Inbox(old)
            old.subscribe(.with { $0.topics = [.onDuty] })  // as a client from before schedules
            let oldInitial = try await oldInbox.untilSynced()
            #expect(oldInitial.filter { if case .onDutyChanged = $0 { true } else { false } }.count == 1)

            harness.clock.advance(to: t0 + minute)
            let event = try #require(onDutyEvent(try await followerInbox.next()))
            #expect(event.scheduleID == team.scheduleID && event.scheduleName == "Platform primary")
            #expect(event.cause == .boundary && event.atMs == t0 + minute)
            #expect(event.previous.map(\.employee.id) == [team.ada] && event.current.map(\.employee.id) == [team.alan])
            #expect(event.untilMs == t0 + 2 * minute)

            // The old client follows the default schedule only: its next event is a change there.
            try await old.barrier()
            try await team.admin.addShift(team.grace, t0, t0 + 60 * minute)
            let defaultEvent = try #require(onDutyEvent(try await oldInbox.next()))
            #expect(defaultEvent.scheduleID.isEmpty && defaultEvent.cause == .planChanged)
            #expect(defaultEvent.current.map(\.employee.id) == [team.grace])
            await follower.close()
            await old.close()
            await team.admin.close()
        }
    }

    @Test func overlappingOverridesOnTheSamePersonAreRefusedNamingTheOther() async throws {
        try await withServer(now: TimeText.parseISO8601("2026-11-23T12:00:00Z")!) { harness in
            let team = try await Self.team(harness)
            func override(_ from: String, _ to: String) -> RosterMessage {
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.addOverride = .with {
                            $0.kind = .replace; $0.replacedEmployeeID = "Ada Lovelace"; $0.employeeID = "Grace Hopper"
                            $0.startMs = TimeText.parseISO8601(from)!
                            $0.endMs = TimeText.parseISO8601(to)!
                        }
                    })
            }
            let first = try await team.admin.admin(override("2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"))
            let error = try await Self.refusal(team.admin, override("2026-12-01T12:00:00Z", "2026-12-03T00:00:00Z"))
            #expect(error.code == .invalidArgument)
            let listed = try await team.admin.request(.listSchedules(.init()))
            guard case .schedules(let schedules) = listed else { Issue.record("expected Schedules"); return }
            let existing = try #require(
                schedules.schedules.first { $0.name == "Platform primary" }?.overrides.first?.id)
            #expect(
                error.violations.contains {
                    $0.description_p.contains(
                        "overlaps override \(existing), which also changes Ada Lovelace and Grace Hopper")
                },
                "\(error)")
            #expect(
                first.revision + 1 == (try await team.admin.admin(.setMotd(.with { $0.motd = "x" }))).revision,
                "the refused override committed nothing")
            await team.admin.close()
        }
    }

    @Test func aPreviewShowsWhoGainsAndLosesAndCommitsNothing() async throws {
        try await withServer(now: TimeText.parseISO8601("2026-11-23T12:00:00Z")!) { harness in
            let team = try await Self.team(harness)
            let before = try await Self.final(
                team.admin, "Platform primary", from: "2026-11-30T00:00:00Z", to: "2026-12-28T00:00:00Z")
            let preview = try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.preview = true
                        $0.swap = .with {
                            $0.first = "Ada Lovelace"
                            $0.firstFromMs = TimeText.parseISO8601("2026-11-30T08:00:00Z")!
                            $0.firstToMs = TimeText.parseISO8601("2026-12-07T08:00:00Z")!
                            $0.second = "Grace Hopper"
                            $0.secondFromMs = TimeText.parseISO8601("2026-12-14T08:00:00Z")!
                            $0.secondToMs = TimeText.parseISO8601("2026-12-21T08:00:00Z")!
                        }
                    }))
            #expect(preview.dryRun)
            let moves = preview.preview.map {
                "\($0.employeeName) \($0.gained ? "+" : "-") \(TimeText.iso8601($0.startMs))"
            }
            #expect(
                moves == [
                    "Ada Lovelace - 2026-11-30T08:00:00Z", "Grace Hopper + 2026-11-30T08:00:00Z",
                    "Grace Hopper - 2026-12-14T08:00:00Z", "Ada Lovelace + 2026-12-14T08:00:00Z",
                ])
            let after = try await Self.final(
                team.admin, "Platform primary", from: "2026-11-30T00:00:00Z", to: "2026-12-28T00:00:00Z")
            #expect(after == before)
            await team.admin.close()
        }
    }

    @Test func anEmployeeInARotationCannotBeDeletedAndTheDefaultScheduleCannotBe() async throws {
        try await withServer { harness in
            let team = try await Self.team(harness)
            let refused = try await Self.refusal(team.admin, .deleteEmployee(.with { $0.id = team.grace }))
            #expect(refused.code == .invalidArgument)
            #expect(
                refused.violations.first?.description_p.contains(
                    "Grace Hopper is in the rotations or overrides of \"Platform primary\"") == true)
            let defaultDelete = try await Self.refusal(
                team.admin,
                .editSchedule(
                    .with {
                        $0.schedule = "default"; $0.deleteSchedule = true
                    }))
            #expect(defaultDelete.code == .invalidArgument)
            let unknown = try await Self.refusal(
                team.admin,
                .editSchedule(
                    .with {
                        $0.schedule = "Nope"; $0.deleteSchedule = true
                    }))
            #expect(unknown.code == .notFound)
            let badZone = try await Self.refusal(
                team.admin,
                .editSchedule(
                    .with {
                        $0.upsertSchedule = .with {
                            $0.name = "X"; $0.zone = "Mars/Olympus"
                        }
                    }))
            #expect(badZone.violations.first?.description_p.contains("IANA") == true)
            await team.admin.close()
        }
    }

    @Test func schedulesSurviveARestartAndAnswerTheSame() async throws {
        let directory = TestScratch.directory("roster-schedules")
        defer { try? FileManager.default.removeItem(at: directory) }
        let now = TimeText.parseISO8601("2026-11-23T12:00:00Z")!
        let before: [Roster_V1_ResolvedShift]
        do {
            let harness = try await ServerHarness.start(now: now, dataDirectory: directory.path)
            let team = try await Self.team(harness)
            before = try await Self.final(
                team.admin, "Platform primary", from: "2026-11-30T00:00:00Z", to: "2027-01-04T00:00:00Z")
            await team.admin.close()
            await harness.stop()
        }
        try await using(try await ServerHarness.start(now: now, dataDirectory: directory.path)) { harness in
            let connection = try await harness.connect()
            let after = try await Self.final(
                connection, "Platform primary", from: "2026-11-30T00:00:00Z", to: "2027-01-04T00:00:00Z")
            #expect(after == before && after.count == 5)
            await connection.close()
        }
    }

    @Test func theBoundariesOfManySchedulesCostOneTimer() async throws {
        try await withServer { harness in
            let team = try await Self.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .days; $0.count = 1
                }, handoff: "2026-01-01T12:00")
            // Thirty more schedules handing off daily at 01:00, 02:00, ... UTC.
            for hour in 1...30 {
                _ = try await Self.schedule(
                    "S\(hour)", team.admin, zone: "UTC",
                    every: .with {
                        $0.unit = .days; $0.count = 1
                    },
                    handoff: String(format: "2026-01-01T%02d:00", hour % 24))
            }
            // The alarm is armed again once the work pool has looked at the changes (after the
            // answers, on a busy machine): waited for, not assumed after a round trip.
            #expect(
                await eventually(30) { harness.clock.armedInstants == [t0 + 60 * minute] },
                "one alarm, at the earliest handoff of any schedule")
            harness.clock.advance(to: t0 + 60 * minute)
            #expect(
                await eventually(30) { harness.clock.armedInstants == [t0 + 120 * minute] },
                "one alarm, at the next handoff")
            await team.admin.close()
        }
    }

    @Test func aReaderMayPutThemselvesOnDutyWhereTheScheduleAllowsAndNothingElse() async throws {
        try await withServer(
            now: TimeText.parseISO8601("2026-11-23T12:00:00Z")!,
            configure: { $0.limits.tokenRefresh = .milliseconds(50) }
        ) { harness in
            let team = try await Self.team(harness)
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let created = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, employee: "Grace Hopper")
            let anonymous = try await administration.createToken(tenant: "demo", role: .reader, expiresIn: nil)
            await administration.close()
            #expect(created.token.employeeID == team.grace)
            let ready = await eventually(10) { (try? await harness.connect(token: created.text)) != nil }
            try #require(ready, "the server did not pick up the token")
            let grace = try await harness.connect(token: created.text)
            func volunteer(_ kind: Roster_V1_ScheduleOverride.Kind, _ person: String, replacing: String = "")
                -> RosterMessage
            {
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.addOverride = .with {
                            $0.kind = kind; $0.employeeID = person; $0.replacedEmployeeID = replacing
                            $0.startMs = TimeText.parseISO8601("2026-12-01T00:00:00Z")!
                            $0.endMs = TimeText.parseISO8601("2026-12-02T00:00:00Z")!
                        }
                    })
            }
            #expect(
                try await Self.refusal(grace, volunteer(.replace, "Grace Hopper", replacing: "Ada Lovelace")).code
                    == .permissionDenied,
                "the schedule does not allow it yet")
            try await team.admin.admin(
                .editSchedule(
                    .with {
                        $0.upsertSchedule = .with {
                            $0.id = team.scheduleID; $0.name = "Platform primary"; $0.zone = "Europe/Berlin"
                            $0.readersMayVolunteer = true
                        }
                    }))
            let done = try await grace.admin(volunteer(.replace, "Grace Hopper", replacing: "Ada Lovelace"))
            #expect(done.revision > 0 && done.preview.map(\.employeeName) == ["Ada Lovelace", "Grace Hopper"])
            #expect(
                try await Self.refusal(grace, volunteer(.add, "Linus Torvalds")).code == .permissionDenied,
                "only themselves")
            #expect(
                try await Self.refusal(
                    grace,
                    .editSchedule(
                        .with {
                            $0.schedule = "Platform primary"; $0.deleteOverride = done.ids.last!
                        })
                )
                .code == .permissionDenied)
            #expect(try await Self.refusal(grace, .deleteShift(.with { $0.id = "x" })).code == .permissionDenied)
            let nobody = try await harness.connect(token: anonymous.text)
            #expect(
                try await Self.refusal(nobody, volunteer(.add, "Grace Hopper")).code == .permissionDenied,
                "a reader token that names nobody cannot volunteer")
            let shifts = try await Self.final(
                team.admin, "Platform primary", from: "2026-12-01T00:00:00Z", to: "2026-12-02T00:00:00Z")
            #expect(shifts.map(\.employeeID) == [team.grace] && shifts.first?.sourceKind == .override)
            await grace.close()
            await nobody.close()
            await team.admin.close()
        }
    }

    @Test func hostileInstantsAndSizesGetTypedErrorsAndTheServerKeepsServing() async throws {
        try await withServer { harness in
            let team = try await Self.team(harness)
            let admin = team.admin
            func rotation(_ change: (inout Roster_V1_Rotation) -> Void) -> RosterMessage {
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.upsertRotation = .with {
                            $0.rotation = .with {
                                $0.cadence = .with {
                                    $0.unit = .hours; $0.count = 1
                                }
                                $0.handoff = "2026-01-01T00:00"
                                $0.slots = [.with { $0.employeeIds = [team.ada] }]
                                change(&$0)
                            }
                        }
                    })
            }
            let refusals: [(String, RosterMessage, String)] = [
                (
                    "at_ms at the edge of time",
                    .getOnDuty(
                        .with {
                            $0.atMs = .min; $0.schedule = "Platform primary"
                        }), "years 1 and 9999"
                ),
                (
                    "a window at the end of time",
                    .getFinalSchedule(
                        .with {
                            $0.fromMs = .max - 1; $0.toMs = .max
                        }), "years 1 and 9999"
                ),
                (
                    "next from the start of time",
                    .getNextOnDuty(
                        .with {
                            $0.employee = "Ada Lovelace"; $0.atMs = .min
                        }), "years 1 and 9999"
                ),
                ("a cadence of four billion hours", rotation { $0.cadence.count = 4_000_000_000 }, "at most 1000"),
                ("an unknown cadence unit", rotation { $0.cadence.unit = .unspecified }, "at least 1"),
                ("a handoff that is not a date", rotation { $0.handoff = "soon" }, "local date-time"),
                ("an end at the end of time", rotation { $0.endMs = .max }, "years 1 and 9999"),
                (
                    "restricted hourly turns counted since 1950",
                    rotation {
                        $0.handoff = "1950-01-01T00:00";
                        $0.restrictions = [
                            .with {
                                $0.weekdays = [2]; $0.startMinute = 0; $0.endMinute = 60
                            }
                        ]
                    },
                    "turns back"
                ),
                (
                    "an edit effective at the start of time",
                    .editSchedule(
                        .with {
                            $0.schedule = "Platform primary"
                            $0.upsertRotation = .with {
                                $0.rotation = .with { $0.id = "x" }; $0.effectiveMs = .min
                            }
                        }), "years 1 and 9999"
                ),
                (
                    "an override from the start of time",
                    .editSchedule(
                        .with {
                            $0.schedule = "Platform primary"
                            $0.addOverride = .with {
                                $0.kind = .add; $0.employeeID = team.ada; $0.startMs = .min; $0.endMs = 0
                            }
                        }), "years 1 and 9999"
                ),
            ]
            for (what, message, expected) in refusals {
                let error = try await Self.refusal(admin, message)
                #expect(error.code == .invalidArgument, "\(what): \(error)")
                let text = ([error.message] + error.violations.map(\.description_p)).joined(separator: " ")
                #expect(text.contains(expected), "\(what): \(text)")
            }
            let reply = try await admin.request(.listSchedules(.init()))
            guard case .schedules(let listed) = reply else { throw TestFailure("listSchedules answered \(reply)") }
            let existing = try #require(
                listed.schedules.first { $0.name == "Platform primary" }?.layers.first?.rotations.first)
            var huge = existing
            huge.cadence = .with {
                $0.unit = .weeks; $0.count = 4_000_000_000
            }
            let edit = try await Self.refusal(
                admin,
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.upsertRotation = .with {
                            $0.rotation = huge; $0.effectiveMs = t0 + 400 * 24 * 60 * minute
                        }
                    }))
            #expect(
                edit.code == .invalidArgument && edit.violations.contains { $0.description_p.contains("at most 1000") },
                "\(edit)")
            let still = try await Self.final(
                admin, "Platform primary", from: "2026-11-30T00:00:00Z", to: "2026-12-07T00:00:00Z")
            #expect(still.map(\.employeeID) == [team.ada], "the server still answers")
            await admin.close()
        }
    }
}
