import Foundation
import NIOCore
import NIOHTTP1
import NIOConcurrencyHelpers
import RosterDomain
import RosterProtocol
import RosterServerCore

/// `/v1/oncall` and `/v1/people/NAME/next`: who is on call, as JSON (docs/HTTP.md).
extension HTTPAPI {
    /// `/v1/oncall`: who is on call at an instant, or the final schedule over a window (resolved
    /// in slices, `SlicedAnswer`, so a year of a dense schedule holds a work thread only briefly).
    func oncall(_ request: Request, tenant: TenantRuntime) -> @Sendable () -> Reply? {
        let view = tenant.view
        let now = tenant.clock.now()
        let at: UnixMillis
        do { at = try Self.instant(request.query["at"], name: "at") ?? now } catch { return { error.reply } }
        if request.query["from"] != nil || request.query["to"] != nil {
            let from: UnixMillis, to: UnixMillis
            do {
                guard let start = try Self.instant(request.query["from"], name: "from"),
                    let end = try Self.instant(request.query["to"], name: "to")
                else {
                    return {
                        Self.problem(
                            400,
                            "give both from and to (ISO 8601), e.g. from=2026-12-01T00:00:00Z&to=2026-12-08T00:00:00Z")
                    }
                }
                (from, to) = (start, end)
            } catch { return { error.reply } }
            let query = RosterMessage.getFinalSchedule(
                .with {
                    $0.schedule = request.query["schedule"] ?? ""
                    $0.fromMs = from
                    $0.toMs = to
                })
            let sliced = SlicedAnswer(query, view: view, now: now)
            return { sliced.step().map { shifts($0, view: view) } }
        }
        return { onCallNow(request, view: view, at: at, now: now) }
    }

    func onCallNow(_ request: Request, view: TenantRuntime.View, at: UnixMillis, now: UnixMillis) -> Reply {
        let schedules: [ScheduleDefinition]
        do { schedules = try view.state.schedules(named: request.query["schedule"]) } catch {
            return Self.problem(WireError(error))
        }
        var answers: [OnCallJSON.Schedule] = []
        for schedule in schedules {
            let query = RosterMessage.getOnDuty(
                .with {
                    $0.schedule = schedule.id
                    $0.atMs = at
                })
            switch Queries.answer(query, view: view, now: now) {
            case .success(.onDuty(let answer)): answers.append(OnCallJSON.Schedule(answer, schedule: schedule))
            case .success(let other): return Self.problem(500, "unexpected answer \(other.type)")
            case .failure(let error): return Self.problem(error)
            }
        }
        return Self.json(
            OnCallJSON.Now(
                tenant: view.state.tenant.id, at: TimeText.iso8601(at), revision: view.revision,
                epoch: String(view.epoch), schedules: answers))
    }

    func next(person: String, _ request: Request, tenant: TenantRuntime) -> Reply {
        let view = tenant.view
        let now = tenant.clock.now()
        let at: UnixMillis?
        do { at = try Self.instant(request.query["at"], name: "at") } catch { return error.reply }
        let query = RosterMessage.getNextOnDuty(
            .with {
                $0.employee = person
                $0.schedule = request.query["schedule"] ?? ""
                if let at { $0.atMs = at }
            })
        return shifts(Queries.answer(query, view: view, now: now), view: view)
    }

    func shifts(_ answer: Result<RosterMessage, WireError>, view: TenantRuntime.View) -> Reply {
        switch answer {
        case .success(.finalSchedule(let final)):
            return Self.json(
                OnCallJSON.Shifts(
                    revision: final.revision, epoch: String(final.epoch), truncated: final.truncated,
                    shifts: final.shifts.map {
                        OnCallJSON.Shift($0, scheduleName: view.state.schedules[$0.scheduleID]?.name ?? $0.scheduleID)
                    },
                    conflicts: final.conflicts.isEmpty ? nil : final.conflicts.map(OnCallJSON.Conflict.init)))
        case .success(let other): return Self.problem(500, "unexpected answer \(other.type)")
        case .failure(let error): return Self.problem(error)
        }
    }
}
