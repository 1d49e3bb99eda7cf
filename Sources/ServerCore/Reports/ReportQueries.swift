import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore

/// GetReport: hours per person and schedule quality (docs/REPORTS.md). The tenant's record and
/// plan are read together behind its queued changes; the arithmetic runs on the work pool, so a
/// year-long report never holds up the tenant's changes or another tenant.
extension ServerCore {
    /// The most recorded stretches one report reads.
    package static let maxReportStretches = 1_000_000
    /// The most gaps a quality report lists.
    static let maxListedGaps = 1_000

    package func report(_ request: Roster_V1_GetReportRequest, on tenant: TenantRuntime, actor: Caller) async
        -> Result<Roster_V1_ReportResponse, WireError>
    {
        if let refusal = ReportAnswer.refusal(request.kind, isAdmin: actor.isAdmin, employeeID: actor.employeeID) {
            return .failure(refusal)
        }
        let (from, to) = (request.fromMs, request.toMs)
        guard TimeRange.supported.contains(from), TimeRange.supported.contains(to), from < to else {
            return .failure(WireError(.invalidArgument, "the window needs from before to"))
        }
        guard to - from <= HoursReport.maxWindow else {
            return .failure(
                WireError(
                    .invalidArgument,
                    "the window is longer than \(HoursReport.maxWindow / 86_400_000) days: ask a shorter one"))
        }
        guard request.kind == .hours || request.kind == .quality else {
            return .failure(WireError(.invalidArgument, "kind must be HOURS or QUALITY"))
        }
        // Read the record and the plan at one revision: behind the tenant's queued changes.
        let read:
            Result<
                (
                    view: TenantRuntime.View, marks: [String: DutyRecordMark], recorded: [RecordedStretch],
                    now: UnixMillis
                ), WireError
            >
        read = await withCheckedContinuation { continuation in
            let store = admin.store, clock = clock
            let queued = mutations.submit(tenant.id) {
                let view = tenant.view, now = clock.now()
                do {
                    let marks = try await store.dutyRecordMarks(tenantID: tenant.id)
                    let recorded = try await store.dutyRecord(
                        tenantID: tenant.id, from: from, to: min(to, now), limit: Self.maxReportStretches)
                    guard !recorded.truncated else {
                        continuation.resume(
                            returning: .failure(
                                WireError(
                                    .resourceExhausted,
                                    "the window holds more than "
                                        + "\(Self.maxReportStretches) recorded stretches: ask a shorter one")))
                        return
                    }
                    continuation.resume(returning: .success((view, marks, recorded.stretches, now)))
                } catch {
                    continuation.resume(
                        returning: .failure(
                            WireError(.unavailable, "the duty record could not be read: \(error)", retryable: true)))
                }
            }
            if !queued {
                continuation.resume(
                    returning: .failure(WireError(.unavailable, "the server is shutting down", retryable: true)))
            }
        }
        let input:
            (view: TenantRuntime.View, marks: [String: DutyRecordMark], recorded: [RecordedStretch], now: UnixMillis)
        switch read {
        case .success(let found): input = found
        case .failure(let error): return .failure(error)
        }
        let answer = await work.run(tenant.id) { () -> Result<Roster_V1_ReportResponse, WireError> in
            do throws(RosterError) {
                return .success(
                    try ReportAnswer.make(
                        request, state: input.view.state, marks: input.marks, recorded: input.recorded,
                        now: input.now, isAdmin: actor.isAdmin, employeeID: actor.employeeID))
            } catch {
                return .failure(WireError(error))
            }
        }
        return answer ?? .failure(AdminOperations.busy)
    }
}

/// A report's answer from the tenant's state and record: pure, so that HTTP and the protocol
/// give the same numbers.
package enum ReportAnswer {
    /// Who may ask: admins; a token bound to a person, for its own hours.
    package static func refusal(_ kind: Roster_V1_GetReportRequest.Kind, isAdmin: Bool, employeeID: String?)
        -> WireError?
    {
        if isAdmin || (kind == .hours && employeeID != nil) { return nil }
        return WireError(
            .permissionDenied,
            kind == .hours
                ? "hours reports are for admins and for a token bound to a person (their own hours)"
                : "schedule quality reports are for admins")
    }

    package static func make(
        _ request: Roster_V1_GetReportRequest, state: RosterState, marks: [String: DutyRecordMark],
        recorded: [RecordedStretch], now: UnixMillis, isAdmin: Bool, employeeID: String?
    ) throws(RosterError)
        -> Roster_V1_ReportResponse
    {
        if request.kind == .quality, !request.policy.isEmpty {
            return try policyQuality(request, state: state, marks: marks, recorded: recorded, now: now)
        }
        let (from, to) = (request.fromMs, request.toMs)
        var scope = try state.schedules(named: request.schedule.isEmpty ? nil : request.schedule).map(\.id)
        if request.schedule.isEmpty {
            // Deleted schedules keep their record: their past hours still count.
            scope += marks.keys.filter { state.schedules[$0] == nil }.sorted()
        }
        let zones = Set(scope.compactMap { state.schedules[$0]?.zone })
        let zone = !request.zone.isEmpty ? request.zone : zones.count == 1 ? zones.first! : "UTC"
        let options = try HoursReportOptions.parse(
            zone: zone, businessHours: request.businessHours, workdays: request.workdays,
            night: request.night, holidays: request.holidays)
        let stretches = try ReportStretches.gather(
            scope, state: state, recorded: recorded, marks: marks, from: from, to: to)
        var response = Roster_V1_ReportResponse.with {
            $0.fromMs = from
            $0.toMs = to
            $0.nowMs = now
            $0.zone = zone
            let since = scope.filter { state.schedules[$0] != nil }.compactMap { marks[$0]?.since }.filter { $0 > from }
                .max()
            $0.recordedSinceMs = min(since ?? 0, to)
        }
        func name(_ id: String) -> String { state.employees[id]?.fullName ?? id }
        func scheduleName(_ id: String) -> String { state.schedules[id]?.name ?? "\(id) (deleted)" }
        switch request.kind {
        case .quality:
            guard !request.schedule.isEmpty, let scheduleID = scope.first else {
                throw .invalid([
                    RosterViolation(
                        field: "schedule", message: "a quality report is of one schedule or escalation policy: name it")
                ])
            }
            let participants = state.schedules[scheduleID]?.participants(from: from, to: to) ?? []
            let quality = QualityReport.compute(
                scheduleID: scheduleID, stretches: stretches, from: from, to: to, participants: participants)
            response.quality = .with {
                $0.scheduleID = scheduleID
                $0.scheduleName = scheduleName(scheduleID)
                $0.coveredMs = quality.covered
                $0.coveragePercent = quality.coverage
                $0.gaps = quality.gaps.prefix(ServerCore.maxListedGaps).map {
                    (gap: Range<UnixMillis>) -> Roster_V1_TimeSpan in
                    .with {
                        $0.startMs = gap.lowerBound
                        $0.endMs = gap.upperBound
                    }
                }
                $0.gapsOmitted = UInt32(max(0, quality.gaps.count - ServerCore.maxListedGaps))
                $0.balance = quality.balance
                $0.equity = quality.equity
                $0.meanMs = Int64(quality.mean.rounded())
                $0.people = quality.hours.sorted { ($0.value, name($1.key)) > ($1.value, name($0.key)) }.map {
                    entry -> Roster_V1_PersonHours in
                    .with {
                        $0.employeeID = entry.key
                        $0.name = name(entry.key)
                        $0.totalMs = entry.value
                        $0.shortestRestMs = -1
                    }
                }
            }
        default:
            var person: String?
            if !isAdmin {
                // A person's own token: their own hours, nobody else's.
                guard let own = employeeID else {
                    throw .invalid([
                        RosterViolation(
                            field: "person", message: "hours reports are for admins and for a person's own token")
                    ])
                }
                if !request.person.isEmpty, state.employee(idOrName: request.person)?.id != own {
                    throw .invalid([
                        RosterViolation(field: "person", message: "a person's token reports their own hours only")
                    ])
                }
                person = own
            } else if !request.person.isEmpty {
                guard let found = state.employee(idOrName: request.person) else {
                    throw .notFound(
                        "employee \"\(request.person)\"", suggestions: state.suggestions(for: request.person))
                }
                person = found.id
            }
            guard let clock = WallClock(zone: zone) else {
                throw .invalid([RosterViolation(field: "zone", message: "\"\(zone)\" is not an IANA time zone")])
            }
            let timeline = CategoryTimeline(from: from, to: to, options: options, clock: clock)
            let hours = HoursReport.compute(stretches, from: from, to: to, timeline: timeline)
            // By last name, then first name: each key folded once, not at every comparison.
            let rows = hours.values.filter { person == nil || $0.employeeID == person }.map { row in
                let employee = state.employees[row.employeeID]
                return (
                    key: (
                        TextFolding.fold(employee?.lastName ?? row.employeeID),
                        TextFolding.fold(employee?.firstName ?? ""), row.employeeID
                    ),
                    row: row
                )
            }
            response.people = rows.sorted { $0.key < $1.key }.map(\.row).map { row in
                Roster_V1_PersonHours.with {
                    $0.employeeID = row.employeeID
                    $0.name = name(row.employeeID)
                    $0.totalMs = row.total
                    $0.schedules = row.bySchedule.sorted { scheduleName($0.key) < scheduleName($1.key) }.map {
                        entry -> Roster_V1_ScheduleHours in
                        .with {
                            $0.scheduleID = entry.key
                            $0.scheduleName = scheduleName(entry.key)
                            $0.ms = entry.value
                        }
                    }
                    $0.categories = Roster_V1_CategoryHours(row.categories)
                    $0.overrideMs = row.fromOverrides
                    $0.coverTakenMs = row.coverTaken
                    $0.coverGivenMs = row.coverGiven
                    $0.outOfHoursPeriods = UInt32(row.outOfHoursPeriods)
                    $0.stretches = UInt32(row.stretches)
                    $0.longestStretchMs = row.longestStretch
                    $0.shortestRestMs = row.shortestRest ?? -1
                }
            }
        }
        return response
    }
}
