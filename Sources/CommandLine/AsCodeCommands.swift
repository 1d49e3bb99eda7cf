import Foundation
import RosterAsCode
import RosterClient
import RosterDomain
import RosterProtocol

/// Schedules as code (docs/AS-CODE.md): `export --format yaml`, `plan -f FILE` and `apply -f
/// FILE`. The file is read here (every problem with its line and column, secrets from their
/// references); the server works out the plan and commits it, as one revision.
extension CommandRunner {
    /// `export --format yaml`: the tenant's definition, from the server (an admin's: its
    /// webhooks and rules are read too).
    public func exportDefinition(now: UnixMillis = .now) async -> ClientExitCode {
        do {
            let state = try await client.refreshCache().state
            let settings = DefinitionExport.Settings(
                webhooks: try await client.webhooks(), reminders: try await client.reminders(),
                announcements: try await client.announcements())
            let text = DefinitionExport.yaml(state, settings: settings, now: now)
            do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch { return .failure }
            return .success
        } catch {
            return report(error)
        }
    }

    /// Reads a definition file ("-": standard input), or prints its problems (nil: exit with
    /// `ClientExitCode.invalidInput`).
    public static func readDefinition(
        _ path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> DefinitionFile?
    {
        let data =
            path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
        guard let data else {
            err("\(path): cannot be read")
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else {
            err("\(path): is not UTF-8 text")
            return nil
        }
        let base = URL(fileURLWithPath: path == "-" ? "." : path).deletingLastPathComponent()
        do throws(DefinitionFile.Problems) {
            return try DefinitionFile.parse(text, path: path) { reference in
                switch reference {
                case .environment(let name): return environment[name]
                case .file(let file):
                    // Relative to the definition file, as a reviewer reads it.
                    let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : base.appendingPathComponent(file)
                    return (try? Data(contentsOf: url)).flatMap { String(data: $0, encoding: .utf8) }
                }
            }
        } catch {
            for problem in error.problems { err(problem.description) }
            err("\(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") in \(path); nothing was sent.")
            return nil
        }
    }

    /// `plan -f FILE`: exit 0 when the file changes nothing, 2 when it would change something.
    public func plan(_ file: DefinitionFile, prune: Bool) async -> ClientExitCode {
        do {
            let plan = try await client.applyDefinition(
                .with {
                    $0.definition = file.document
                    $0.prune = prune
                    $0.planOnly = true
                })
            await print(plan, file: file, prune: prune)
            return Self.changes(in: plan) == 0 ? .success : .changesPlanned
        } catch {
            return reportDefinition(error, file: file)
        }
    }

    /// `apply -f FILE`: the plan first (shown, and confirmed by `confirm` when given), then the
    /// whole file as one revision, refused if the tenant moved from the plan's revision
    /// (`expectRevision`, or the plan's own).
    public func apply(
        _ file: DefinitionFile, prune: Bool, expectRevision: UInt64?, reason: String,
        confirm: ((String) -> Bool)?
    ) async -> ClientExitCode {
        do {
            let plan = try await client.applyDefinition(
                .with {
                    $0.definition = file.document
                    $0.prune = prune
                    $0.planOnly = true
                    if let expectRevision { $0.expectRevision = expectRevision }
                })
            guard Self.changes(in: plan) > 0 else {
                await print(plan, file: file, prune: prune)
                return .success
            }
            if let confirm {
                await print(plan, file: file, prune: prune)
                guard confirm("Apply these changes to \(settings.server)? [y/N] ") else {
                    Self.err("Nothing was applied.")
                    return .failure
                }
            }
            let inFlight = ChangeInFlight(server: settings.server)
            defer { inFlight.end() }
            let applied = try await client.applyDefinition(
                .with {
                    $0.definition = file.document
                    $0.prune = prune
                    $0.expectRevision = expectRevision ?? plan.revision
                    $0.reason = reason
                })
            await print(applied, file: file, prune: prune)
            return .success
        } catch {
            return reportDefinition(error, file: file)
        }
    }

    static func changes(in plan: Roster_V1_DefinitionPlan) -> Int {
        plan.changes.filter { [.create, .change, .delete].contains($0.action) }.count
    }

    /// A refusal whose violations name places of the document, shown at their lines.
    private func reportDefinition(_ error: any Error, file: DefinitionFile) -> ClientExitCode {
        guard case RosterClientError.server(let body) = error, body.code == .invalidArgument, !body.violations.isEmpty
        else {
            return report(error)
        }
        let placed = body.violations.map { ($0, file.place(location: $0.location, field: $0.field)) }
            .sorted { ($0.1?.line ?? 0, $0.1?.column ?? 0) < ($1.1?.line ?? 0, $1.1?.column ?? 0) }
        for (violation, place) in placed {
            let at = place.map { "\(file.path):\($0.line):\($0.column)" } ?? file.path
            let field = [violation.location, violation.field].filter { !$0.isEmpty }.joined(separator: " ")
            Self.err("\(at): \(field.isEmpty ? "" : field + ": ")\(violation.description_p)")
        }
        Self.err(body.message.prefix(1).uppercased() + body.message.dropFirst() + ".")
        return .invalidInput
    }

    private func print(_ plan: Roster_V1_DefinitionPlan, file: DefinitionFile, prune: Bool) async {
        // Schedules are named in the duty lines as people know them.
        let names =
            plan.duty.isEmpty ? [:] : ((try? await client.refreshCache().state.schedules.mapValues(\.name)) ?? [:])
        let count = Self.changes(in: plan)
        func place(_ change: Roster_V1_DefinitionChange) -> DefinitionFile.Place? {
            change.location.isEmpty ? nil : file.place(location: change.location, field: "")
        }
        if json {
            struct Field: Encodable { var field, before, after: String }
            struct Change: Encodable {
                var action, kind, id, name, location: String; var line, column: Int?; var fields: [Field]
            }
            struct Duty: Encodable { var schedule, employee, change, start, end: String }
            struct Plan: Encodable {
                var file: String; var revision: UInt64; var applied: Bool; var changes: Int; var objects: [Change];
                var duty: [Duty]
                var dutyOmitted: Int; var dutyCut: Bool; var secrets: [String: String]; var apply: String?
            }
            let objects = plan.changes.map { change in
                Change(
                    action: Self.word(change.action), kind: change.kind, id: change.id, name: change.name,
                    location: change.location,
                    line: place(change)?.line, column: place(change)?.column,
                    fields: change.fields.map { Field(field: $0.field, before: $0.before, after: $0.after) })
            }
            let duty = plan.duty.map {
                Duty(
                    schedule: names[$0.scheduleID] ?? $0.scheduleID, employee: $0.employeeName,
                    change: $0.gained ? "gains" : "loses",
                    start: TimeText.iso8601($0.startMs), end: TimeText.iso8601($0.endMs))
            }
            Self.out(
                JSONShapes.line(
                    Plan(
                        file: file.path, revision: plan.revision, applied: plan.committed, changes: count,
                        objects: objects,
                        duty: duty, dutyOmitted: Int(plan.dutyOmitted), dutyCut: plan.dutyCut, secrets: plan.secrets,
                        apply: plan.committed || count == 0
                            ? nil : applyCommand(file: file, prune: prune, revision: plan.revision))))
            return
        }
        if plan.committed {
            Self.out("Applied \(file.path) as revision \(plan.revision): \(Self.tally(plan)).")
        } else if count == 0 {
            Self.out("Nothing to do: the tenant (revision \(plan.revision)) is as \(file.path) describes.")
        } else {
            Self.out("Plan for \(file.path) against revision \(plan.revision): \(Self.tally(plan)).")
        }
        let signs: [Roster_V1_DefinitionAction: String] = [.create: "+", .change: "~", .delete: "-"]
        for change in plan.changes where signs[change.action] != nil {
            let at = place(change).map { " (line \($0.line))" } ?? ""
            Self.out(
                "  \(signs[change.action]!) \(change.kind) \(change.name)\(change.name.contains(change.id) ? "" : " [\(change.id)]")\(at)"
            )
            for field in change.fields {
                Self.out("      \(field.field): \(Self.shown(field.before)) → \(Self.shown(field.after))")
            }
        }
        let kept = plan.changes.filter { $0.action == .notInFile }
        if !kept.isEmpty {
            let listed = kept.prefix(10).map { "\($0.kind) \($0.name)" }.joined(separator: ", ")
            Self.out(
                "  Not in the file and kept (--prune deletes them): \(listed)\(kept.count > 10 ? ", and \(kept.count - 10) more" : "")"
            )
        }
        if !plan.duty.isEmpty {
            Self.out(plan.committed ? "Duty that moved:" : "Duty that would move (from now, for 35 days):")
            for delta in plan.duty {
                Self.out(
                    "  \(names[delta.scheduleID] ?? delta.scheduleID): \(delta.employeeName) \(delta.gained ? "gains" : "loses") "
                        + "\(display.dateTime(delta.startMs)) – \(display.dateTime(delta.endMs)) \(display.zoneName)")
            }
            if plan.dutyOmitted > 0 { Self.out("  … and \(plan.dutyOmitted) more stretches") }
            if plan.dutyCut { Self.out("  (the preview stopped at its budget: later schedules are not shown)") }
        } else if count > 0 {
            Self.out("Nobody gains or loses duty.")
        }
        for (id, secret) in plan.secrets.sorted(by: { $0.key < $1.key }) {
            Self.out("Signing secret of webhook \(id) (shown once): \(secret)")
        }
        if !plan.committed, count > 0 {
            Self.out("Apply it with: " + applyCommand(file: file, prune: prune, revision: plan.revision))
        }
    }

    private func applyCommand(file: DefinitionFile, prune: Bool, revision: UInt64) -> String {
        "roster-client apply -f \(file.path)\(prune ? " --prune" : "") --expect-revision \(revision)"
    }

    static func word(_ action: Roster_V1_DefinitionAction) -> String {
        switch action {
        case .create: "create"
        case .change: "change"
        case .delete: "delete"
        case .notInFile: "not-in-file"
        default: "unknown"
        }
    }

    private static func shown(_ text: String) -> String { text.isEmpty ? "(none)" : JSONText.quoted(text) }

    private static func tally(_ plan: Roster_V1_DefinitionPlan) -> String {
        let counts = [("to create", Roster_V1_DefinitionAction.create), ("to change", .change), ("to delete", .delete)]
            .compactMap { words, action in
                let n = plan.changes.filter { $0.action == action }.count
                return n == 0 ? nil : "\(n) \(plan.committed ? String(words.dropFirst(3)) + "d" : words)"
            }
        return counts.isEmpty ? "nothing to change" : counts.joined(separator: ", ")
    }
}
