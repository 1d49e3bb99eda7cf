import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

/// `admin schedule|rotation|override|timeoff …`: schedule edits sent, their previews printed,
/// and the look-ups the edit commands make first.
extension CommandRunner {
    /// Sends one schedule edit; prints the revision, or with a preview who would gain or lose
    /// which duty and commits nothing.
    public func editSchedule(_ edit: Roster_V1_EditScheduleRequest, done: String) async -> ClientExitCode {
        do {
            let inFlight = edit.preview ? nil : ChangeInFlight(server: settings.server)
            defer { inFlight?.end() }
            let result = try await client.editSchedule(edit)
            if json {
                struct Delta: Encodable { var employee: String; var start: String; var end: String; var change: String }
                struct Result: Encodable {
                    var revision: UInt64; var schedule: String; var preview: Bool; var ids: [String];
                    var changes: [Delta]
                }
                Self.out(
                    JSONShapes.line(
                        Result(
                            revision: result.revision, schedule: result.scheduleID, preview: result.preview,
                            ids: result.createdIDs,
                            changes: result.deltas.map {
                                Delta(
                                    employee: $0.employeeName, start: TimeText.iso8601($0.start),
                                    end: TimeText.iso8601($0.end),
                                    change: $0.gained ? "gains" : "loses")
                            })))
                return .success
            }
            if result.preview {
                Self.out("Preview (nothing was changed): from the change's first instant, for 35 days or to its end")
            } else {
                Self.out(
                    "\(done) (revision \(result.revision)\(result.scheduleID.isEmpty ? "" : ", " + result.scheduleID))")
                // What was made, by id: what `remove` and `edit` take.
                if !result.createdIDs.isEmpty {
                    let what =
                        switch edit.edit {
                        case .timeOff?: "time off"
                        case .addOverride?: "override"
                        case .coverRequest?, .takeDuty?: "ids"  // a step may change what it names, not make it
                        default: "made"
                        }
                    Self.out("  \(what): " + result.createdIDs.joined(separator: ", "))
                }
                if case .timeOff(let off)? = edit.edit, off.action == .add {
                    await printConflicts(madeBy: off, ids: Set(result.createdIDs))
                }
            }
            if result.preview || !result.deltas.isEmpty {
                if result.deltas.isEmpty { Self.out("  nobody gains or loses duty.") }
                for delta in result.deltas {
                    Self.out(
                        "  \(delta.employeeName) \(delta.gained ? "gains" : "loses") "
                            + "\(display.dateTime(delta.start)) – \(display.dateTime(delta.end)) \(display.zoneName)")
                }
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// After time off is recorded: the duty it now collides with, each with who could cover it,
    /// as `oncall` would show them (nothing when it collides with none, or the answer fails).
    private func printConflicts(madeBy off: Roster_V1_TimeOffEdit, ids: Set<String>) async {
        let query = FinalScheduleQuery(
            from: off.startMs, to: off.endMs, employee: off.person.isEmpty ? nil : off.person)
        guard var answer = try? await client.finalSchedule(query) else { return }
        answer.conflicts = answer.conflicts.filter { ids.contains($0.timeOffID) }
        guard !answer.conflicts.isEmpty else { return }
        printConflicts(answer)
    }

    /// The definition of one schedule from the server, for edits that change part of it.
    public func schedule(named name: String) async throws -> ScheduleDefinition? {
        Self.find(name, in: try await client.schedules())
    }

    /// The window of `person`'s turn on a schedule that holds `instant` (its rotation turn, or
    /// else the stretch they are on duty then): what a swap exchanges.
    public func turn(of person: String, on schedule: String, at instant: UnixMillis) async throws -> Range<UnixMillis>?
    {
        let window: UnixMillis = 62 * 86_400_000
        let shifts = try await client.finalSchedule(
            FinalScheduleQuery(
                schedule: schedule, from: instant - window,
                to: instant + window, employee: person)
        ).shifts
        guard let hit = shifts.first(where: { $0.start <= instant && instant < $0.end }) else { return nil }
        guard case .rotation = hit.source else { return hit.start..<hit.end }
        // The whole turn: every stretch from the same turn.
        let sameTurn = shifts.filter { $0.source == hit.source }
        return sameTurn.map(\.start).min()!..<sameTurn.map(\.end).max()!
    }

    func refreshCacheQuietly() async {
        _ = try? await client.refreshCacheIfBehind()
    }
}
