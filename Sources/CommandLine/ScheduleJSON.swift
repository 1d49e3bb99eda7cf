import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

extension JSONShapes {
    /// One entry of `oncall --json`: the shape of the API's `Shift` (`GET /v1/oncall`, docs/HTTP.md),
    /// so `source` means the same in both (its kind), plus `sourceText` in words.
    public struct FinalShiftEntry: Encodable, Sendable {
        public var id: String
        public var schedule: String
        public var scheduleId: String
        public var employee: String
        public var employeeId: String
        public var start: String
        public var end: String
        /// rotation, shift, override or temporary.
        public var source: String
        /// The rotation, one-off shift, override or temporary span.
        public var sourceId: String
        /// A self-service override's source: "request:ID" or "take:EMPLOYEE_ID"; absent otherwise.
        public var overrideSource: String?
        /// "layer 0, rotation rot_x, turn 3", "override ovr_x (request:req_y)".
        public var sourceText: String
        /// `show`'s whole stretches only: it started before, or goes on after, what was resolved
        /// (start or end is then the furthest known), and the sources of stretches joined into it.
        public var startedEarlier: Bool?
        public var continues: Bool?
        public var joined: [String]?

        /// A stretch as `show --json` lists it: whole, joined from back-to-back pieces.
        public init(_ stretch: WholeStretches.Stretch<FinalShift>) {
            self.init(stretch.item)
            start = TimeText.iso8601(stretch.start)
            end = TimeText.iso8601(stretch.end)
            (startedEarlier, continues) = (stretch.startedEarlier, stretch.continues)
            if stretch.pieces.count > 1 { joined = stretch.pieces.map(\.sourceText) }
        }

        public init(_ shift: FinalShift) {
            id = shift.id
            schedule = shift.scheduleName
            scheduleId = shift.scheduleID
            employee = shift.employee?.fullName ?? shift.employeeID
            employeeId = shift.employeeID
            start = TimeText.iso8601(shift.start)
            end = TimeText.iso8601(shift.end)
            overrideSource = shift.overrideSource.isEmpty ? nil : shift.overrideSource
            sourceText = shift.sourceText
            switch shift.source {
            case .rotation(_, let rotation, _, _): (source, sourceId) = ("rotation", rotation)
            case .override(let id): (source, sourceId) = ("override", id)
            case .shift(let id): (source, sourceId) = ("shift", id)
            case .temporary(let id): (source, sourceId) = ("temporary", id)
            }
        }
    }

    /// One entry of `conflicts` in `oncall --json`: duty inside the person's time off.
    public struct ConflictEntry: Encodable, Sendable {
        public struct Proposal: Encodable, Sendable {
            public var employee: String
            public var employeeId: String
            /// Their duty 14 days either side, in hours.
            public var hoursAround: Double
        }
        public var id: String
        public var scheduleId: String
        public var employee: String
        public var employeeId: String
        public var start: String
        public var end: String
        public var timeOffId: String
        public var proposals: [Proposal]

        public init(_ conflict: DutyConflict, names: (String) -> String) {
            id = conflict.id
            scheduleId = conflict.scheduleID
            employee = names(conflict.employeeID)
            employeeId = conflict.employeeID
            start = TimeText.iso8601(conflict.start)
            end = TimeText.iso8601(conflict.end)
            timeOffId = conflict.timeOffID
            proposals = conflict.proposals.map {
                Proposal(
                    employee: names($0.employeeID), employeeId: $0.employeeID,
                    hoursAround: Double($0.dutyAround) / 3_600_000)
            }
        }
    }
}
