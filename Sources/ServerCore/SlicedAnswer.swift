import RosterDomain
import RosterProtocol

/// A read answered in slices on the work pool (`TenantWorkPool.submitSliced`): a GetFinalSchedule
/// resolves about `sliceUnits` of its budget per slice and then lets other work run (a year of a
/// dense schedule is some hundred slices of a few milliseconds, not one long hold of a thread);
/// any other read is answered in its first slice. The answer is exactly `Queries.answer`'s.
package final class SlicedAnswer: @unchecked Sendable {  // the pool runs one slice at a time
    /// About 5 ms of resolving in a release build (a request's whole budget, 400,000 units, is
    /// about 0.3 s; docs/BENCHMARKS.md).
    package static let sliceUnits = 8_000

    private let request: RosterMessage
    private let view: TenantRuntime.View
    private let now: UnixMillis
    private var resolution: FinalScheduleResolution?

    package init(_ request: RosterMessage, view: TenantRuntime.View, now: UnixMillis) {
        (self.request, self.view, self.now) = (request, view, now)
    }

    /// One slice: nil while the resolution goes on, then the answer.
    package func step() -> Result<RosterMessage, WireError>? {
        guard case .getFinalSchedule(let query) = request else { return Queries.answer(request, view: view, now: now) }
        do throws(RosterError) {
            if resolution == nil {
                if let refusal = Queries.finalScheduleRefusal(query) { return .failure(refusal) }
                resolution = try view.state.finalScheduleResolution(
                    schedule: query.schedule, employee: query.employee,
                    from: query.fromMs, to: query.toMs, kept: view.keptWeeks)
            }
            guard try resolution!.advance(units: Self.sliceUnits) else { return nil }
            return .success(
                Queries.finalScheduleMessage(Queries.finalScheduleParts(resolution!, view: view), view: view))
        } catch {
            return .failure(WireError(error))
        }
    }
}
