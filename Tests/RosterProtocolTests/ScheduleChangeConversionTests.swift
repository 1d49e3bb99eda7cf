import Foundation
import RosterDomain
import RosterProtocol
import Testing

/// EditSchedule read into the domain's request: every field the planners use arrives, and an
/// action this build does not know reads as none, which the planners refuse.
@Suite(.timeLimit(.minutes(10))) struct ScheduleChangeConversionTests {
    @Test func eachEditKindArrivesWithItsFields() {
        func converted(_ fill: (inout Roster_V1_EditScheduleRequest) -> Void) -> ScheduleChangeRequest {
            var wire = Roster_V1_EditScheduleRequest.with {
                $0.schedule = "Platform"; $0.reason = "why"
            }
            fill(&wire)
            return ScheduleChangeRequest(wire)
        }
        let take = converted {
            $0.takeDuty = .with { ($0.person, $0.startMs, $0.endMs, $0.undo, $0.reason) = ("ada", 10, 20, true, "r") }
        }
        #expect(
            take
                == ScheduleChangeRequest(
                    schedule: "Platform",
                    edit: .takeDuty(.init(person: "ada", start: 10, end: 20, reason: "r", undo: true)),
                    reason: "why"))
        #expect(take.isSelfService)
        let cover = converted {
            $0.coverRequest = .with {
                ($0.action, $0.startMs, $0.endMs, $0.addressedTo, $0.note) = (.open, 1, 2, ["x"], "n")
            }
        }
        #expect(
            cover.edit == .cover(.init(action: .open, start: 1, end: 2, addressedTo: ["x"], note: "n"))
                && cover.isSelfService)
        let rotation = converted {
            $0.upsertRotation = .with {
                $0.level = 2; $0.effectiveMs = 5; $0.rotation.id = "r"
            }
        }
        guard case .upsertRotation(let added, level: 2, effective: 5, startSlot: nil) = rotation.edit else {
            Issue.record("\(rotation)")
            return
        }
        #expect(added.id == "r" && !rotation.isSelfService)
        #expect(
            converted { $0.endRotation = .with { $0.rotationID = "r" } }.edit == .endRotation(id: "r", effective: nil))
        #expect(converted { $0.deleteOverride = "ovr_1" }.edit == .deleteOverride(id: "ovr_1"))
        #expect(converted { $0.takeSuggestion = "off_1.a" }.edit == .takeSuggestion(conflictID: "off_1.a"))
        let swap = converted {
            $0.swap = .with {
                ($0.first, $0.firstFromMs, $0.firstToMs, $0.second, $0.secondFromMs, $0.secondToMs) = (
                    "a", 1, 2, "b", 3, 4
                )
            }
        }
        #expect(
            swap.edit == .swap(.init(first: "a", firstFrom: 1, firstTo: 2, second: "b", secondFrom: 3, secondTo: 4)))
        let timeOff = converted {
            $0.timeOff = .with { ($0.action, $0.calendar, $0.zone) = (.import, Data("ics".utf8), "Europe/Berlin") }
        }
        #expect(
            timeOff.edit == .timeOff(.init(action: .importCalendar, calendar: Data("ics".utf8), zone: "Europe/Berlin")))
        let temporary = converted {
            $0.temporary = .with {
                $0.action = .set; $0.shifts = [.with { ($0.employeeID, $0.startMs, $0.endMs) = ("ada", 1, 2) }]
            }
        }
        #expect(
            temporary.edit
                == .temporary(
                    .init(action: .set, start: 0, end: 0, shifts: [.init(employeeID: "ada", start: 1, end: 2)])))
        #expect(
            converted { $0.holidays = .with { ($0.action, $0.name, $0.days) = (.delete, "DE", ["2026-12-25"]) } }.edit
                == .holidays(.init(action: .delete, name: "DE", days: ["2026-12-25"])))
        #expect(converted { _ in }.edit == nil)
    }

    @Test func anUnknownActionReadsAsNone() {
        let cover = ScheduleChangeRequest(.with { $0.coverRequest = .with { $0.action = .UNRECOGNIZED(42) } })
        let timeOff = ScheduleChangeRequest(.with { $0.timeOff = .with { $0.action = .UNRECOGNIZED(42) } })
        let holidays = ScheduleChangeRequest(.with { $0.holidays = .with { $0.action = .unspecified } })
        #expect(cover.edit == .cover(.init(action: nil)) && timeOff.edit == .timeOff(.init(action: nil)))
        #expect(holidays.edit == .holidays(.init(action: nil, name: "")))
    }
}
