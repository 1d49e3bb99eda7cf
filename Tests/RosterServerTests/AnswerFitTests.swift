import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import SwiftProtobuf
import Testing

/// Answers that list things stay within the frame size the client was given, and say what they
/// left out.
@Suite(.timeLimit(.minutes(10))) struct AnswerFitTests {
    static func size(_ message: some SwiftProtobuf.Message) throws -> Int {
        try (message.serializedBytes() as [UInt8]).count
    }

    @Test func aFinalScheduleIsCutToTheFrameKeepingTheFirstShifts() throws {
        let padding = String(repeating: "x", count: 150)
        var answer = Roster_V1_FinalScheduleResponse.with { answer in
            answer.shifts = (0..<2_000).map { index in
                .with {
                    $0.id = "s\(index)-\(padding)"; $0.employeeID = "e\(index)"; $0.startMs = Int64(index) * 3_600_000
                }
            }
            answer.conflicts = [0, 1_999].map { index in
                .with {
                    $0.id = "c\(index)"; $0.startMs = Int64(index) * 3_600_000
                }
            }
        }
        let whole = try Self.size(answer)
        #expect(whole > 256 << 10)
        AnswerFit.fit(&answer, maxFrameBytes: 256 << 10)
        #expect(try Self.size(answer) <= (256 << 10) - 1_024 && answer.truncated)
        #expect(
            answer.shifts.count > 1_000 && answer.shifts.first?.employeeID == "e0",
            "the first shifts are kept, \(answer.shifts.count)")
        #expect(answer.conflicts.map(\.id) == ["c0"], "a conflict of a shift left out goes too")
        // An answer that fits is left alone.
        var small = Roster_V1_FinalScheduleResponse.with { $0.shifts = [.with { $0.id = "one" }] }
        AnswerFit.fit(&small, maxFrameBytes: 4_096)
        #expect(small.shifts.count == 1 && !small.truncated)
    }

    @Test func aPlanCutsItsDutyPreviewFirstThenWhatTheFileDoesNotName() throws {
        let padding = String(repeating: "y", count: 200)
        let plan = Roster_V1_DefinitionPlan.with { plan in
            plan.changes = (0..<100).map { index in
                .with {
                    $0.action = index < 50 ? .change : .notInFile; $0.kind = "rotation"; $0.id = "r\(index)";
                    $0.name = padding
                }
            }
            plan.duty = (0..<500).map { index in
                .with {
                    $0.employeeName = "Person \(index) \(padding)"; $0.startMs = Int64(index)
                }
            }
            plan.dutyOmitted = 7
        }
        #expect(try Self.size(plan) > 64 << 10)
        let fitted = try #require(AnswerFit.fit(plan, maxFrameBytes: 64 << 10))
        #expect(try Self.size(fitted) <= (64 << 10) - 1_024)
        #expect(fitted.changes.count == 100, "the changes stay while the preview can give way")
        #expect(
            fitted.duty.count < 500 && fitted.dutyOmitted == 7 + UInt32(500 - fitted.duty.count),
            "what was cut is counted")
        // Tighter: the preview goes, then the objects the file does not name.
        let tight = try #require(AnswerFit.fit(plan, maxFrameBytes: 14 << 10))
        #expect(
            tight.duty.isEmpty && tight.dutyOmitted == 507 && tight.changes.count == 50
                && tight.changes.allSatisfy { $0.action == .change })
        // Changes alone past the frame: refused (the caller says so).
        #expect(AnswerFit.fit(plan, maxFrameBytes: 8 << 10) == nil)
    }

    /// On a server whose frames are 64 KiB, a year of an hourly rotation (2,000 stretches, about
    /// 200 KB) comes cut to the frame, marked truncated, and the client takes it.
    @Test func aServerWithSmallFramesAnswersAYearWithinThem() async throws {
        try await withServer(configure: { $0.limits.maxFrameBytes = 64 << 10 }) { harness in
            let team = try await ScheduleServerTests.team(
                harness, zone: "UTC",
                every: .with {
                    $0.unit = .hours; $0.count = 1
                },
                handoff: "2026-01-01T00:00")
            let answer = try await team.admin.request(
                .getFinalSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.fromMs = t0
                        $0.toMs = t0 + 366 * 86_400_000
                    }))
            guard case .finalSchedule(let body) = answer else { throw TestFailure("expected FinalSchedule: \(answer)") }
            #expect(body.truncated && !body.shifts.isEmpty && body.shifts.count < 2_000, "\(body.shifts.count)")
            #expect(body.shifts.first?.startMs == t0)
            #expect(try Self.size(body) <= 64 << 10)
            await team.admin.close()
        }
    }
}
