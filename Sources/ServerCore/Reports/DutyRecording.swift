import RosterDomain
import RosterStore

extension ServerCore {
    /// How often every schedule's duty is recorded up to now: a change then has at most this
    /// much of its schedule's past to record in its own commit.
    package static let dutyRecordInterval: Duration = .seconds(3600)

    /// One recording round: each tenant's schedules recorded up to now (`DutyRecord`).
    package func recordDuty() async {
        for tenant in tenants.values { await recordDuty(tenant) }
    }

    /// Records `tenant`'s schedules up to now. Not behind the tenant's queue (a change never
    /// waits for a round): the store refuses the write if the tenant moved past the revision
    /// resolved, and cuts what a change recorded meanwhile at its mark.
    package func recordDuty(_ tenant: TenantRuntime) async {
        do {
            let marks = try await admin.store.dutyRecordMarks(tenantID: tenant.id).mapValues(\.until)
            let view = tenant.view, now = clock.now()
            guard
                let recorded = await work.run(
                    tenant.id,
                    {
                        DutyRecord.record(view.state.schedules.keys.sorted(), of: view.state, marks: marks, now: now)
                    })
            else { return }
            if !recorded.skipped.isEmpty {
                logger.warning(
                    "duty record: \(recorded.skipped.joined(separator: ", ")) of tenant \(tenant.id) cost too much to record"
                )
            }
            guard !recorded.write.isEmpty else { return }
            _ = try await admin.store.recordDuty(tenantID: tenant.id, atRevision: view.revision, recorded.write)
        } catch {
            logger.warning("could not record the duty of tenant \(tenant.id): \(error)")
        }
    }

    /// The window of the quality gauges.
    package static let qualityWindow: UnixMillis = 28 * 86_400_000

    /// How old the quality gauges may be when scraped: measured again past it.
    package static let qualityMaxAge: UnixMillis = 3_600_000

    /// Starts measuring the quality gauges again if a tenant's measurement is missing or older
    /// than `qualityMaxAge`, and returns at once: a /metrics scrape calls it, so a scrape never
    /// waits for a report's work (it shows what was measured last; the first shows none) and a
    /// server nobody scrapes spends nothing. One measurement runs at a time.
    package func requestQualityGauges() {
        let now = clock.now()
        let stale = tenants.values.contains { tenant in
            scheduleQuality.withLockedValue { $0[tenant.id].map { now - $0.measuredAt >= Self.qualityMaxAge } ?? true }
        }
        guard stale,
            qualityMeasuring.withLockedValue({ measuring in
                defer { measuring = true }
                return !measuring
            })
        else { return }
        Task {
            await self.refreshQualityGauges()
            self.qualityMeasuring.withLockedValue { $0 = false }
        }
    }

    /// Measures the quality gauges of every tenant whose measurement is missing or older than
    /// `qualityMaxAge`.
    package func refreshQualityGauges() async {
        let now = clock.now()
        for tenant in tenants.values {
            let fresh = scheduleQuality.withLockedValue {
                $0[tenant.id].map { now - $0.measuredAt < Self.qualityMaxAge } ?? false
            }
            guard !fresh, let input = await qualityInput(tenant) else { continue }
            await measureQuality(tenant, input)
        }
    }

    /// A tenant's record and definitions at one revision, for the gauges.
    struct QualityInput: Sendable {
        var view: TenantRuntime.View
        var marks: [String: DutyRecordMark]
        var recorded: [RecordedStretch]
        var from: UnixMillis, now: UnixMillis
    }

    /// The record and the definitions of the last 28 days, read behind the tenant's queued
    /// changes (so they agree); nil if they cannot be read.
    private func qualityInput(_ tenant: TenantRuntime) async -> QualityInput? {
        let store = admin.store, clock = clock, logger = logger
        return await withCheckedContinuation { (done: CheckedContinuation<QualityInput?, Never>) in
            let queued = mutations.submit(tenant.id) {
                let view = tenant.view, now = clock.now(), from = now - Self.qualityWindow
                do {
                    let marks = try await store.dutyRecordMarks(tenantID: tenant.id)
                    let rows = try await store.dutyRecord(
                        tenantID: tenant.id, from: from, to: now, limit: Self.maxReportStretches)
                    done.resume(
                        returning: rows.truncated
                            ? nil
                            : QualityInput(view: view, marks: marks, recorded: rows.stretches, from: from, now: now))
                } catch {
                    logger.warning("could not read the duty record of tenant \(tenant.id): \(error)")
                    done.resume(returning: nil)
                }
            }
            if !queued { done.resume(returning: nil) }
        }
    }

    /// Every schedule's quality over the last 28 days, for the gauges: on the work pool, off the
    /// tenant's queue (a change never waits for it).
    private func measureQuality(_ tenant: TenantRuntime, _ input: QualityInput) async {
        let measured = await work.run(tenant.id) { () -> [String: QualityReport] in
            var found: [String: QualityReport] = [:]
            for schedule in input.view.state.sortedSchedules {
                guard
                    let stretches = try? ReportStretches.gather(
                        [schedule.id], state: input.view.state, recorded: input.recorded,
                        marks: input.marks, from: input.from, to: input.now)
                else { continue }
                found[schedule.id] = QualityReport.compute(
                    scheduleID: schedule.id, stretches: stretches, from: input.from, to: input.now,
                    participants: schedule.participants(from: input.from, to: input.now))
            }
            return found
        }
        guard let measured else { return }
        scheduleQuality.withLockedValue { $0[tenant.id] = (input.now, measured) }
    }
}
