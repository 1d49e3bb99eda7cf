import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

/// One step in a cover request's life, as `request take|decline|cancel|back-out` names it.
public enum CoverRequestStep: String, CaseIterable, Sendable {
    case take, decline, cancel, backOut = "back-out"

    var action: Roster_V1_CoverRequestEdit.Action {
        switch self {
        case .take: .take
        case .decline: .decline
        case .cancel: .cancel
        case .backOut: .backOut
        }
    }

    var done: String {
        switch self {
        case .take: "Took"
        case .decline: "Declined"
        case .cancel: "Cancelled"
        case .backOut: "Backed out of"
        }
    }
}

extension CommandRunner {
    // MARK: Self-service

    /// `take`: the token's person (or, for an admin, `person`) becomes the one on duty.
    public func take(
        schedule: String, from start: UnixMillis, to end: UnixMillis, person: String?, undo: Bool = false,
        reason: String, preview: Bool
    ) async -> ClientExitCode {
        await editSchedule(
            .with {
                $0.schedule = schedule
                $0.preview = preview
                $0.reason = reason
                $0.takeDuty = .with {
                    $0.person = person ?? ""
                    $0.startMs = start
                    $0.endMs = end
                    $0.reason = reason
                    $0.undo = undo
                }
            }, done: undo ? "Undid the take on \(schedule)" : "Took duty on \(schedule)")
    }

    /// `request cover`: opens a request and prints its id (alone on the line, for scripts).
    public func askForCover(
        schedule: String, from start: UnixMillis, to end: UnixMillis, addressedTo: [String], note: String,
        person: String?
    ) async -> ClientExitCode {
        do {
            let inFlight = ChangeInFlight(server: settings.server)
            defer { inFlight.end() }
            let result = try await client.editSchedule(
                .with {
                    $0.schedule = schedule
                    $0.coverRequest = .with {
                        $0.action = .open
                        $0.person = person ?? ""
                        $0.startMs = start
                        $0.endMs = end
                        $0.addressedTo = addressedTo
                        $0.note = note
                    }
                })
            let id = result.createdIDs.first ?? ""
            if json {
                struct Opened: Encodable { var id: String; var schedule: String; var revision: UInt64 }
                Self.out(JSONShapes.line(Opened(id: id, schedule: result.scheduleID, revision: result.revision)))
            } else {
                Self.out(id)
                Self.err(
                    "Asked for cover on \(schedule), \(display.dateTime(start)) – \(display.dateTime(end)) \(display.zoneName) "
                        + "(revision \(result.revision)). `roster-client requests` shows it; `request cancel \(id)` withdraws it."
                )
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// `request take|decline|cancel|back-out ID`.
    public func coverRequest(_ step: CoverRequestStep, id: String, person: String?) async -> ClientExitCode {
        await editSchedule(
            .with {
                $0.coverRequest = .with {
                    $0.action = step.action
                    $0.requestID = id
                    $0.person = person ?? ""
                }
            }, done: "\(step.done) cover request \(id)")
    }

    /// `requests`: the cover requests, newest last, in the state they are in now.
    public func requests(schedule: String?, state wanted: CoverRequest.State?) async -> ClientExitCode {
        await withCacheFallback(
            online: {
                let schedules = try await client.schedules()
                await refreshCacheQuietly()
                return printRequests(schedules, state: await client.roster?.state, schedule: schedule, wanted: wanted)
            },
            cached: { roster in
                printRequests(roster.state.sortedSchedules, state: roster.state, schedule: schedule, wanted: wanted)
            })
    }

    private func printRequests(
        _ schedules: [ScheduleDefinition], state: RosterState?, schedule: String?,
        wanted: CoverRequest.State?
    ) -> ClientExitCode {
        let now = UnixMillis.now
        var chosen = schedules
        if let schedule {
            guard let found = Self.find(schedule, in: schedules) else {
                Self.err(
                    "Schedule \"\(schedule)\" not found; schedules: \(schedules.map(\.name).joined(separator: ", ")).")
                return .notFound
            }
            chosen = [found]
        }
        let rows = chosen.flatMap { definition in
            definition.requests.filter { wanted == nil || $0.state(at: now) == wanted }.map { (definition, $0) }
        }.sorted { ($0.1.start, $0.1.id) < ($1.1.start, $1.1.id) }
        if json {
            // One document, an array, as every other listing's --json (watch alone streams lines).
            Self.out(JSONShapes.line(rows.map { CoverRequest.Summary($0.1, schedule: $0.0, state: state, at: now) }))
            return .success
        }
        guard !rows.isEmpty else {
            Self.out(wanted.map { "No \($0.rawValue) cover requests." } ?? "No cover requests.")
            return .success
        }
        let name = { (id: String) in state?.employees[id]?.fullName ?? id }
        var table = TextTable([
            "ID", "SCHEDULE", "STATE", "WHO ASKS", "FROM (\(display.zoneName))", "TO", "FOR", "TAKEN BY", "NOTE",
        ])
        for (definition, request) in rows {
            table.rows.append([
                request.id, definition.name, request.state(at: now).rawValue, name(request.requester),
                display.dateTime(request.start), display.dateTime(request.end),
                request.addressedTo.isEmpty ? "everyone" : request.addressedTo.map(name).joined(separator: ", "),
                request.taker.map(name) ?? "", request.note,
            ])
        }
        Self.out(table.render())
        return .success
    }
}
