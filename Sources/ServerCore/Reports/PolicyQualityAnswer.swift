import RosterDomain
import RosterProtocol
import RosterStore

extension ReportAnswer {
    /// The night counted when a policy's report is not told one: the hours a page at night
    /// reaches someone asleep.
    static let defaultPolicyNight = "22:00-08:00"

    /// QUALITY of an escalation policy: each step's coverage over the window from the stretches
    /// of the schedules it reaches (the record, then the plan), the steps that name one person
    /// only, and the time no step pages anyone by category (docs/ESCALATION.md, "Quality").
    static func policyQuality(
        _ request: Roster_V1_GetReportRequest, state: RosterState, marks: [String: DutyRecordMark],
        recorded: [RecordedStretch], now: UnixMillis
    ) throws(RosterError) -> Roster_V1_ReportResponse {
        guard let policy = state.escalation.policy(idOrName: request.policy) else {
            let folded = TextFolding.fold(request.policy)
            let close = state.escalation.sortedPolicies.map(\.name).filter {
                TextFolding.fold($0).contains(folded) || folded.contains(TextFolding.fold($0))
            }
            throw .notFound("escalation policy \"\(request.policy)\"", suggestions: Array(close.prefix(5)))
        }
        let (from, to) = (request.fromMs, request.toMs)
        let zone = request.zone.isEmpty ? state.zone(of: policy) : request.zone
        let options = try HoursReportOptions.parse(
            zone: zone, businessHours: request.businessHours, workdays: request.workdays,
            night: request.night.isEmpty ? defaultPolicyNight : request.night, holidays: request.holidays)
        guard let clock = WallClock(zone: zone) else {
            throw .invalid([RosterViolation(field: "zone", message: "\"\(zone)\" is not an IANA time zone")])
        }
        let reached = state.schedules(reachedBy: policy)
        let stretches = try ReportStretches.gather(
            reached, state: state, recorded: recorded, marks: marks, from: from, to: to)
        let report = PolicyQualityReport.compute(
            policy, state: state, stretches: stretches, from: from, to: to,
            timeline: CategoryTimeline(from: from, to: to, options: options, clock: clock))
        func spans(_ ranges: [Range<UnixMillis>]) -> [Roster_V1_TimeSpan] {
            ranges.prefix(ServerCore.maxListedGaps).map { range in
                .with {
                    $0.startMs = range.lowerBound
                    $0.endMs = range.upperBound
                }
            }
        }
        let window = Double(max(1, to - from))
        return .with {
            $0.fromMs = from
            $0.toMs = to
            $0.nowMs = now
            $0.zone = zone
            let since = reached.compactMap { marks[$0]?.since }.filter { $0 > from }.max()
            $0.recordedSinceMs = min(since ?? 0, to)
            $0.policyQuality = .with {
                $0.policyID = policy.id
                $0.policyName = policy.name
                $0.steps = report.steps.map { step in
                    .with {
                        $0.level = UInt32(step.level)
                        $0.coveredMs = step.covered
                        $0.coveragePercent = 100 * Double(step.covered) / window
                        $0.gaps = spans(step.gaps)
                        $0.gapsOmitted = UInt32(max(0, step.gaps.count - ServerCore.maxListedGaps))
                        $0.onlyPersonID = step.onlyPerson ?? ""
                        $0.onlyPersonName = step.onlyPerson.map { state.employees[$0]?.fullName ?? $0 } ?? ""
                    }
                }
                $0.uncovered = spans(report.uncovered)
                $0.uncoveredOmitted = UInt32(max(0, report.uncovered.count - ServerCore.maxListedGaps))
                $0.uncoveredHours = Roster_V1_CategoryHours(report.uncoveredHours)
            }
        }
    }
}

extension Roster_V1_CategoryHours {
    init(_ hours: CategoryHours) {
        self.init()
        businessMs = hours.business
        outsideBusinessHoursMs = hours.outsideBusinessHours
        nightMs = hours.night
        weekendMs = hours.weekend
        holidayMs = hours.holiday
    }
}
