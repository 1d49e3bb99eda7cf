import RosterProtocol
import SwiftProtobuf

/// Answers that list things are cut to the negotiated frame size, and say so: a client refuses a
/// frame over the limit it was given, so an answer past it would reach nobody.
package enum AnswerFit {
    /// Room for the frame's header and the message's own fields.
    static let headroom = 1_024

    /// The shifts (and conflicts) that fit in `maxFrameBytes`, the first ones kept; `truncated`
    /// set when any were left out.
    package static func fit(_ answer: inout Roster_V1_FinalScheduleResponse, maxFrameBytes: Int) {
        let budget = maxFrameBytes - headroom
        while size(answer) > budget, !answer.shifts.isEmpty || !answer.conflicts.isEmpty {
            let scale = Double(budget) / Double(size(answer))
            if !answer.shifts.isEmpty {
                answer.shifts = Array(
                    answer.shifts.prefix(min(answer.shifts.count - 1, Int(Double(answer.shifts.count) * scale))))
            } else {
                answer.conflicts = Array(
                    answer.conflicts.prefix(
                        min(answer.conflicts.count - 1, Int(Double(answer.conflicts.count) * scale))))
            }
            answer.truncated = true
        }
        // Conflicts of shifts that were left out go too.
        if answer.truncated, let last = answer.shifts.last {
            answer.conflicts.removeAll { $0.startMs > last.startMs }
        }
    }

    /// A definition's plan within `maxFrameBytes`: the duty preview is cut first (`dutyOmitted`
    /// counts what was left out), then the objects the file does not name (kept, listed for
    /// information). nil when the changes alone are larger than a frame.
    package static func fit(_ plan: Roster_V1_DefinitionPlan, maxFrameBytes: Int) -> Roster_V1_DefinitionPlan? {
        let budget = maxFrameBytes - headroom
        var plan = plan
        while size(plan) > budget, !plan.duty.isEmpty {
            let keep = min(plan.duty.count - 1, Int(Double(plan.duty.count) * Double(budget) / Double(size(plan))))
            plan.dutyOmitted += UInt32(plan.duty.count - keep)
            plan.duty = Array(plan.duty.prefix(keep))
        }
        if size(plan) > budget { plan.changes.removeAll { $0.action == .notInFile } }
        return size(plan) > budget ? nil : plan
    }

    private static func size(_ message: some SwiftProtobuf.Message) -> Int {
        (try? message.serializedBytes() as [UInt8])?.count ?? 0
    }
}
