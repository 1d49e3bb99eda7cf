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

    /// Records `tenant`'s schedules up to now, behind its queued changes, so that the definitions
    /// resolved are the ones the marks were written with; the store refuses the write if another
    /// node changed the tenant meanwhile (the next round records it).
    package func recordDuty(_ tenant: TenantRuntime) async {
        let store = admin.store, clock = clock, work = work, logger = logger
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let queued = mutations.submit(tenant.id) {
                defer { done.resume() }
                do {
                    let marks = try await store.dutyRecordMarks(tenantID: tenant.id).mapValues(\.until)
                    let view = tenant.view, now = clock.now()
                    guard let recorded = await work.run(tenant.id, {
                        DutyRecord.record(view.state.schedules.keys.sorted(), of: view.state, marks: marks, now: now)
                    }) else { return }
                    if !recorded.skipped.isEmpty {
                        logger.warning("duty record: \(recorded.skipped.joined(separator: ", ")) of tenant \(tenant.id) cost too much to record")
                    }
                    guard !recorded.write.isEmpty else { return }
                    _ = try await store.recordDuty(tenantID: tenant.id, atRevision: view.revision, recorded.write)
                } catch {
                    logger.warning("could not record the duty of tenant \(tenant.id): \(error)")
                }
            }
            if !queued { done.resume() }
        }
    }
}
