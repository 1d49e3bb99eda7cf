import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterTestSupport
import Testing

/// Time off, conflicts and temporary schedules on a real server (issue #37): a person records
/// their own time off, the conflict reaches a webhook at once with the free people ranked by
/// their hours, taking the proposal makes the override; a rotation that skips time off hands the
/// turn on; a temporary schedule replaces the rules inside its span and nowhere else; an offline
/// client resolving its cached snapshot gives the server's answer.
@Suite(.timeLimit(.minutes(10))) struct TimeOffTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
    /// Monday 2026-11-30 12:00 UTC; a daily UTC rotation of Ada, Alan, Grace and Linus from 09:00
    /// that day (`SelfServiceTests.withPeople`): Ada again from Friday 4 December 09:00.
    static let now = SelfServiceTests.now
    static func at(_ text: String) -> UnixMillis { TimeText.parseISO8601(text)! }

    static func timeOff(
        _ action: Roster_V1_TimeOffEdit.Action, person: String = "", from: String = "", to: String = "",
        id: String = "",
        preview: Bool = false
    ) -> RosterMessage {
        .editSchedule(
            .with {
                $0.preview = preview
                $0.timeOff = .with {
                    $0.action = action
                    $0.person = person
                    if !from.isEmpty { $0.startMs = at(from) }
                    if !to.isEmpty { $0.endMs = at(to) }
                    $0.id = id
                    $0.reason = "holiday"
                }
            })
    }

    static func final(_ connection: RosterConnection, from: UnixMillis, to: UnixMillis) async throws
        -> Roster_V1_FinalScheduleResponse
    {
        guard
            case .finalSchedule(let answer) = try await connection.request(
                .getFinalSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.fromMs = from
                        $0.toMs = to
                    }))
        else { throw TestFailure("expected FinalSchedule") }
        return answer
    }

    /// Who is on duty at `instant` in an answer.
    static func onDuty(_ answer: Roster_V1_FinalScheduleResponse, at instant: UnixMillis) -> [String] {
        answer.shifts.filter { $0.startMs <= instant && instant < $0.endMs }.map(\.employeeID).sorted()
    }

    /// The cached snapshot, resolved as an offline client does.
    static func offline(_ connection: RosterConnection) async throws -> RosterState {
        guard case .snapshot(let snapshot) = try await connection.request(.getSnapshot(.init())) else {
            throw TestFailure("expected Snapshot")
        }
        return RosterState(try Roster_V1_Snapshot(serializedBytes: try snapshot.serializedBytes() as [UInt8]))
    }

    @Test func adasOwnTimeOffMakesAConflictThatAWebhookHearsAtOnceAndTheProposalCovers() async throws {
        try await SelfServiceTests.withPeople { people, harness, _ in
            let admin = people.team.admin
            let receiver = try await WebhookReceiver.start()
            try await withCleanup(receiver, cleanUp: { await $0.stop() }) { receiver in
                _ = try await WebhookTests.addWebhook(admin, url: receiver.url, events: ["coverage.conflict"])
                // Grace has eight more hours in the weeks around it: she comes last.
                try await admin.addShift(
                    people.team.grace, Self.at("2026-12-12T09:00:00Z"), Self.at("2026-12-12T17:00:00Z"))

                // Only Ada records Ada's time off (and a token naming nobody records none).
                let forAlan = try await ScheduleServerTests.refusal(
                    people.ada,
                    Self.timeOff(
                        .add, person: "Alan Turing",
                        from: "2026-12-04T00:00:00Z", to: "2026-12-06T00:00:00Z"))
                #expect(
                    forAlan.code == .permissionDenied && forAlan.message.contains("own time off"), "\(forAlan.message)")
                #expect(
                    try await ScheduleServerTests.refusal(
                        people.nobody,
                        Self.timeOff(
                            .add, person: "Ada Lovelace",
                            from: "2026-12-04T00:00:00Z", to: "2026-12-06T00:00:00Z")
                    ).code == .permissionDenied)
                // A person nobody has is NOT_FOUND with close matches, as for take, cover and reports.
                let unknown = try await ScheduleServerTests.refusal(
                    admin,
                    Self.timeOff(
                        .add, person: "Ada Lovelac",
                        from: "2026-12-04T00:00:00Z", to: "2026-12-06T00:00:00Z"))
                #expect(unknown.code == .notFound && unknown.suggestions.first == "Ada Lovelace", "\(unknown)")
                let recorded = try await people.ada.admin(
                    Self.timeOff(.add, from: "2026-12-04T00:00:00Z", to: "2026-12-06T00:00:00Z"))
                let timeOffID = try #require(recorded.ids.last)
                #expect(timeOffID.hasPrefix("off_"))
                // Overlapping time off of the same person is refused, naming the other.
                let twice = try await ScheduleServerTests.refusal(
                    people.ada, Self.timeOff(.add, from: "2026-12-05T00:00:00Z", to: "2026-12-07T00:00:00Z"))
                #expect(twice.message.contains("overlaps time off \(timeOffID)"), "\(twice.message)")

                // The conflict: Ada's Friday turn, free people with the fewest hours first.
                let window = (Self.now, Self.now + 14 * Self.day)
                let answer = try await Self.final(admin, from: window.0, to: window.1)
                let conflict = try #require(answer.conflicts.first)
                #expect(answer.conflicts.count == 1)
                #expect(conflict.employeeID == people.team.ada && conflict.timeOffID == timeOffID)
                #expect(
                    conflict.startMs == Self.at("2026-12-04T09:00:00Z")
                        && conflict.endMs == Self.at("2026-12-05T09:00:00Z"))
                #expect(
                    conflict.proposals.map(\.employeeName) == ["Linus Torvalds", "Alan Turing", "Grace Hopper"],
                    "Linus has four turns in the four weeks around it, Alan five, Grace five and a shift")
                #expect(
                    conflict.proposals.map(\.dutyAroundMs) == [
                        4 * Self.day, 5 * Self.day, 5 * Self.day + 8 * Self.hour,
                    ]
                )

                // The offline client resolves the same conflict from its cached snapshot.
                let cached = try await Self.offline(people.ada)
                let resolved = try cached.finalSchedule(
                    schedule: "Platform primary", employee: nil, from: window.0, to: window.1)
                #expect(
                    cached.conflicts(in: resolved.shifts).map { Roster_V1_DutyConflict($0, in: cached) }
                        == answer.conflicts)

                // The webhook heard it with the change, not at some later round.
                try await receiver.wait("the coverage.conflict event") {
                    $0.contains { $0.eventType == "coverage.conflict" }
                }
                let event = try #require(receiver.requests.first { $0.eventType == "coverage.conflict" }).json
                let data = try #require(event["data"] as? [String: Any])
                #expect(data["conflict"] as? String == conflict.id)
                #expect((data["person"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
                #expect(
                    ((data["proposals"] as? [[String: Any]])?.first?["person"] as? [String: Any])?["name"] as? String
                        == "Linus Torvalds")
                #expect(data["take"] as? String == "roster-client admin override add --suggested \(conflict.id)")

                // Taking the proposal makes the override: Linus covers, and the conflict is gone.
                let taken = try await admin.admin(.editSchedule(.with { $0.takeSuggestion = conflict.id }))
                #expect(taken.preview.contains { $0.employeeName == "Linus Torvalds" && $0.gained })
                let after = try await Self.final(admin, from: window.0, to: window.1)
                #expect(Self.onDuty(after, at: Self.at("2026-12-04T12:00:00Z")) == [people.team.linus])
                #expect(after.conflicts.isEmpty)
                let again = try await ScheduleServerTests.refusal(
                    admin, .editSchedule(.with { $0.takeSuggestion = conflict.id }))
                #expect(again.code == .notFound)

                // Ada deletes her own time off; the audit keeps both steps.
                try await people.ada.admin(Self.timeOff(.delete, id: timeOffID))
                guard case .audit(let audit) = try await admin.request(.getAudit(.with { $0.limit = 50 })) else {
                    throw TestFailure("expected Audit")
                }
                let kinds = audit.entries.flatMap(\.changes).compactMap { RosterChange($0.change) }
                #expect(kinds.contains(.timeOffDeleted(id: timeOffID)))
                #expect(kinds.contains { if case .timeOffSet(let entry) = $0 { entry.id == timeOffID } else { false } })
                _ = harness
            }
        }
    }

    @Test func aRotationThatSkipsTimeOffHandsTheStretchToTheNextFreePerson() async throws {
        try await SelfServiceTests.withPeople { people, _, _ in
            let admin = people.team.admin
            // Alan is off too, so Ada's Friday goes past him to Grace.
            try await admin.admin(
                Self.timeOff(.add, person: "Alan Turing", from: "2026-12-04T00:00:00Z", to: "2026-12-05T00:00:00Z"))
            guard case .schedules(let listed) = try await admin.request(.listSchedules(.init())),
                let schedule = listed.schedules.first(where: { $0.name == "Platform primary" }),
                var rotation = schedule.layers.first?.rotations.first
            else { throw TestFailure("no rotation") }
            rotation.onTimeOff = .skip
            try await admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.upsertRotation = .with {
                            $0.rotation = rotation; $0.effectiveMs = Self.now
                        }
                    }))
            // A second schedule whose rotation skips time off too.
            let secondary = try await ScheduleServerTests.schedule(
                "Secondary", admin, zone: "UTC",
                every: .with {
                    $0.unit = .days; $0.count = 1
                },
                handoff: "2026-11-30T09:00")
            guard case .schedules(let both) = try await admin.request(.listSchedules(.init())),
                var other = both.schedules.first(where: { $0.name == "Secondary" })?.layers.first?.rotations.first
            else { throw TestFailure("no rotation") }
            other.onTimeOff = .skip
            try await admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Secondary"
                        $0.upsertRotation = .with {
                            $0.rotation = other; $0.effectiveMs = Self.now
                        }
                    }))
            // Previewed: recording Ada's time off moves her Friday to Grace, on both schedules.
            let preview = try await admin.admin(
                Self.timeOff(
                    .add, person: "Ada Lovelace", from: "2026-12-04T12:00:00Z",
                    to: "2026-12-06T00:00:00Z", preview: true))
            #expect(
                preview.dryRun
                    && preview.preview.contains {
                        $0.employeeName == "Grace Hopper" && $0.gained && $0.startMs == Self.at("2026-12-04T12:00:00Z")
                    })
            #expect(
                Set(preview.preview.map(\.scheduleID)) == [people.team.scheduleID, secondary],
                "each schedule that moves is previewed")
            try await admin.admin(
                Self.timeOff(.add, person: "Ada Lovelace", from: "2026-12-04T12:00:00Z", to: "2026-12-06T00:00:00Z"))

            let window = (Self.now, Self.now + 10 * Self.day)
            let answer = try await Self.final(admin, from: window.0, to: window.1)
            #expect(
                Self.onDuty(answer, at: Self.at("2026-12-04T10:00:00Z")) == [people.team.ada],
                "before her time off she is on duty")
            #expect(
                Self.onDuty(answer, at: Self.at("2026-12-04T13:00:00Z")) == [people.team.grace],
                "Alan is off as well: Grace")
            #expect(
                Self.onDuty(answer, at: Self.at("2026-12-05T10:00:00Z")) == [people.team.alan],
                "the order resumes: Alan's own turn")
            #expect(Self.onDuty(answer, at: Self.at("2026-12-08T10:00:00Z")) == [people.team.ada], "and Ada's next one")
            #expect(answer.conflicts.isEmpty, "a skipped stretch is no conflict")

            // The offline client hands it on the same way.
            let cached = try await Self.offline(people.grace)
            let resolved = try cached.finalSchedule(
                schedule: "Platform primary", employee: nil, from: window.0, to: window.1)
            #expect(
                resolved.shifts.map { Roster_V1_ResolvedShift($0.shift, scheduleID: $0.scheduleID) }
                    == answer.shifts.map {
                        var plain = $0; plain.clearEmployee(); plain.overrideSource = ""; return plain
                    })
        }
    }

    @Test func aTemporaryScheduleReplacesTheRulesInsideItsSpanAndNowhereElse() async throws {
        try await SelfServiceTests.withPeople { people, harness, _ in
            let admin = people.team.admin
            func temporary(
                _ action: Roster_V1_TemporaryEdit.Action, _ from: String, _ to: String,
                _ shifts: [(String, String, String)] = [],
                allowGaps: Bool = false
            ) -> RosterMessage {
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.temporary = .with {
                            $0.action = action
                            $0.startMs = Self.at(from)
                            $0.endMs = Self.at(to)
                            $0.shifts = shifts.map { person, start, end in
                                .with {
                                    $0.employeeID = person; $0.startMs = Self.at(start); $0.endMs = Self.at(end)
                                }
                            }
                            $0.allowGaps = allowGaps
                        }
                    })
            }
            let window = (Self.at("2026-12-22T00:00:00Z"), Self.at("2026-12-30T00:00:00Z"))
            let before = try await Self.final(admin, from: window.0, to: window.1)

            // 24–26 December: Grace, then Alan.
            try await admin.admin(
                temporary(
                    .set, "2026-12-24T00:00:00Z", "2026-12-26T00:00:00Z",
                    [
                        ("Grace Hopper", "2026-12-24T00:00:00Z", "2026-12-25T12:00:00Z"),
                        ("Alan Turing", "2026-12-25T12:00:00Z", "2026-12-26T00:00:00Z"),
                    ]))
            var answer = try await Self.final(admin, from: window.0, to: window.1)
            #expect(Self.onDuty(answer, at: Self.at("2026-12-24T10:00:00Z")) == [people.team.grace])
            #expect(Self.onDuty(answer, at: Self.at("2026-12-25T13:00:00Z")) == [people.team.alan])
            let outside = [
                Self.at("2026-12-23T23:00:00Z"), Self.at("2026-12-26T00:00:00Z"), Self.at("2026-12-27T10:00:00Z"),
            ]
            for instant in outside {
                #expect(
                    Self.onDuty(answer, at: instant) == Self.onDuty(before, at: instant), "unchanged outside the span")
            }
            #expect(answer.shifts.contains { $0.sourceKind == .temporary })

            // A span leaving a gap is refused without --allow-gaps, naming the gap.
            let gap = try await ScheduleServerTests.refusal(
                admin,
                temporary(
                    .set, "2026-12-26T00:00:00Z", "2026-12-27T00:00:00Z",
                    [
                        ("Linus Torvalds", "2026-12-26T00:00:00Z", "2026-12-26T12:00:00Z")
                    ]))
            #expect(
                gap.code == .invalidArgument && gap.message.contains("2026-12-26T12:00Z")
                    && gap.message.contains("--allow-gaps"), "\(gap.message)")
            // With it, the touching span merges into one.
            try await admin.admin(
                temporary(
                    .set, "2026-12-26T00:00:00Z", "2026-12-27T00:00:00Z",
                    [
                        ("Linus Torvalds", "2026-12-26T00:00:00Z", "2026-12-26T12:00:00Z")
                    ], allowGaps: true))
            guard case .schedules(let listed) = try await admin.request(.listSchedules(.init())),
                let merged = listed.schedules.first(where: { $0.name == "Platform primary" })?.temporary
            else { throw TestFailure("no schedule") }
            #expect(
                merged.count == 1 && merged[0].startMs == Self.at("2026-12-24T00:00:00Z")
                    && merged[0].endMs == Self.at("2026-12-27T00:00:00Z"))
            answer = try await Self.final(admin, from: window.0, to: window.1)
            #expect(Self.onDuty(answer, at: Self.at("2026-12-26T13:00:00Z")).isEmpty, "the gap it was allowed")

            // Clearing the 25th splits the span; the rotation is back there.
            try await admin.admin(temporary(.clear, "2026-12-25T00:00:00Z", "2026-12-26T00:00:00Z"))
            guard case .schedules(let split) = try await admin.request(.listSchedules(.init())),
                let parts = split.schedules.first(where: { $0.name == "Platform primary" })?.temporary
            else { throw TestFailure("no schedule") }
            #expect(parts.map(\.startMs) == [Self.at("2026-12-24T00:00:00Z"), Self.at("2026-12-26T00:00:00Z")])
            answer = try await Self.final(admin, from: window.0, to: window.1)
            #expect(
                Self.onDuty(answer, at: Self.at("2026-12-25T13:00:00Z"))
                    == Self.onDuty(before, at: Self.at("2026-12-25T13:00:00Z")))

            // The past never changes: a span from two hours ago starts now, and subscribers hear it.
            let follower = try await harness.connect()
            try await withCleanup(follower, cleanUp: { await $0.close() }) { follower in
                let inbox = Inbox(follower)
                follower.subscribe(
                    .with {
                        $0.topics = [.onDuty]; $0.allSchedules = true
                    })
                _ = try await inbox.untilSynced()
                try await admin.admin(
                    .editSchedule(
                        .with {
                            $0.schedule = "Platform primary"
                            $0.temporary = .with {
                                $0.action = .set
                                $0.startMs = Self.now - 2 * Self.hour
                                $0.endMs = Self.now + 2 * Self.hour
                                $0.shifts = [
                                    .with {
                                        $0.employeeID = "Grace Hopper"; $0.startMs = Self.now - 2 * Self.hour;
                                        $0.endMs = Self.now + 2 * Self.hour
                                    }
                                ]
                            }
                        }))
                let event = try #require(onDutyEvent(try await inbox.next()))
                #expect(
                    event.current.map(\.employee.id) == [people.team.grace] && event.untilMs == Self.now + 2 * Self.hour
                )
                let past = try await Self.final(admin, from: Self.now - 2 * Self.hour, to: Self.now)
                #expect(Self.onDuty(past, at: Self.now - Self.hour) == [people.team.ada], "the past stays Ada's")
                let allPast = try await ScheduleServerTests.refusal(
                    admin,
                    temporary(
                        .set, "2026-11-30T08:00:00Z", "2026-11-30T10:00:00Z",
                        [
                            ("Grace Hopper", "2026-11-30T08:00:00Z", "2026-11-30T10:00:00Z")
                        ]))
                #expect(allPast.code == .invalidArgument && allPast.message.contains("past"), "\(allPast.message)")
            }

            // The calendar feed carries the temporary shift.
            guard
                case .calendar(let feed) = try await admin.request(
                    .getCalendar(.with { $0.schedule = "Platform primary" }))
            else {
                throw TestFailure("expected Calendar")
            }
            #expect(feed.ics.contains("DTSTART:20261224T000000Z"), "Grace's temporary shift is in the feed")
        }
    }
}
