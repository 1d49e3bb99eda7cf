import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS
import RosterViewModels

/// Administration over the protocol: changes, the audit log, import and export, calendar links.
extension CommandRunner {
    /// Sends an admin change and prints the committed revision.
    public func administer(_ message: RosterMessage, done: String) async -> ClientExitCode {
        do {
            let inFlight = ChangeInFlight(server: settings.server)
            defer { inFlight.end() }
            let (revision, ids) = try await client.administer(message)
            if json {
                struct Result: Encodable { var revision: UInt64; var ids: [String] }
                Self.out(JSONShapes.line(Result(revision: revision, ids: ids)))
            } else {
                Self.out(
                    "\(done) (revision \(revision)\(ids.isEmpty ? "" : ", " + ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")))"
                )
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// `admin audit`: one block per entry (when, what, who, from where; then each change with its
    /// before and after values, and the reason), or with --json one JSON object per line.
    public func audit(_ query: AuditQuery) async -> ClientExitCode {
        do {
            let (entries, truncated) = try await client.audit(query)
            if truncated {
                Self.err(
                    "Only the newest \(entries.count) matching entries are shown: narrow with --since, --person or --schedule."
                )
            }
            if json {
                for entry in entries { Self.out(entry.jsonLine) }
                return .success
            }
            guard !entries.isEmpty else {
                Self.out("No audit entries match.")
                return .success
            }
            // Shifts and overrides name people and schedules by id: show today's names.
            try? await client.refreshCacheIfBehind()
            let state = await client.roster?.state
            var names: [String: String] = [:]
            if let state {
                for employee in state.employees.values { names[employee.id] = employee.fullName }
                for schedule in state.schedules.values { names[schedule.id] = schedule.name }
            }
            for entry in entries {
                let wire = entry.wire
                var head = "\(display.dateTimeSeconds(entry.at))  \(entry.kind)"
                if wire.revision > 0 { head += "  revision \(wire.revision)" }
                if entry.kind != "auth.failed" {
                    head += "  by \(entry.actor)"
                } else if !wire.tokenID.isEmpty {
                    head += "  token \(wire.tokenID)"
                }
                if !wire.address.isEmpty { head += "  from \(wire.address)" }
                Self.out(head)
                let lines = entry.changeLines(names: names)
                for line in lines.prefix(Self.auditLinesPerEntry) { Self.out("    " + line) }
                if lines.count > Self.auditLinesPerEntry {
                    Self.out("    … and \(lines.count - Self.auditLinesPerEntry) more changes (--json lists them all)")
                }
                if !wire.detail.isEmpty { Self.out("    " + wire.detail) }
                if !wire.reason.isEmpty { Self.out("    reason: " + wire.reason) }
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// A demo roll or an import changes hundreds of records in one revision: list the first ones.
    static let auditLinesPerEntry = 12

    /// `admin import`: with `dryRun`, prints what the file would change and commits nothing;
    /// with `confirm`, shows that first and applies only when it answers yes.
    public func importFile(
        _ path: String, data: Data, format: ImportFormat, options: ImportOptions, dryRun: Bool,
        reason: String = "", confirm: ((String) -> Bool)?
    ) async -> ClientExitCode {
        do {
            if let confirm, !dryRun {
                let preview = try await client.importFile(data, format: format, options: options, dryRun: true)
                printImport(preview, path: path)
                guard confirm("Apply this to \(settings.server)? [y/N] ") else {
                    Self.err("Nothing imported.")
                    return .failure
                }
            }
            let inFlight = dryRun ? nil : ChangeInFlight(server: settings.server)
            defer { inFlight?.end() }
            let result = try await client.importFile(
                data, format: format, options: options, dryRun: dryRun, reason: reason)
            printImport(result, path: path)
            return .success
        } catch {
            return report(error)
        }
    }

    private func printImport(_ result: ImportResult, path: String) {
        if json {
            struct Row: Encodable { var action, kind, id, description, location: String }
            struct Summary: Encodable {
                var dryRun: Bool; var revision: UInt64; var added, updated, unchanged, removed: Int; var ids: [String];
                var rows: [Row]
            }
            Self.out(
                JSONShapes.line(
                    Summary(
                        dryRun: result.dryRun, revision: result.revision, added: result.count(.added),
                        updated: result.count(.updated),
                        unchanged: result.count(.unchanged), removed: result.count(.removed), ids: result.ids,
                        rows: result.rows.map {
                            Row(
                                action: $0.action.rawValue, kind: $0.kind, id: $0.id, description: $0.description,
                                location: $0.location)
                        })))
            return
        }
        let changed = result.rows.contains { $0.action != .unchanged }
        let verdict =
            result.dryRun
            ? "Would import \(path)"
            : changed
                ? "Imported \(path) (revision \(result.revision))"
                : "Nothing to change in \(path)"
        Self.out("\(verdict): \(result.counts).")
        let shown = result.rows.filter { $0.action != .unchanged }
        guard !shown.isEmpty else { return }
        var table = TextTable(["ACTION", "KIND", "ID", "WHAT", "WHERE"])
        for row in shown.prefix(200) {
            table.rows.append([row.action.rawValue, row.kind, row.id, row.description, row.location])
        }
        Self.out(table.render())
        if shown.count > 200 { Self.out("… and \(shown.count - 200) more") }
    }

    /// `export`: the directory and plan in an import format, from the server (or the cache).
    public func export(format: ExportFormat) async -> ClientExitCode {
        func write(_ state: RosterState) {
            switch format {
            case .json: Self.out(String(decoding: RosterExport.snapshotJSON(state), as: UTF8.self))
            case .employeesCSV: Self.write(RosterExport.employeesCSV(state))
            case .shiftsCSV: Self.write(RosterExport.shiftsCSV(state))
            case .yaml: break
            }
        }
        // A definition holds webhooks and rules, which only the server has.
        if format == .yaml { return await exportDefinition() }
        return await withCacheFallback(
            online: {
                write(try await client.refreshCache().state)
                return .success
            },
            cached: { roster in
                write(roster.state)
                return .success
            })
    }

    /// `calendar url` (prints the feed's URL, making a calendar token) and `export --ical`
    /// (writes the feed itself).
    public func calendar(schedule: String?, person: String?, url: Bool, alarm: String?, label: String) async
        -> ClientExitCode
    {
        do {
            let feed = try await client.calendar(
                schedule: schedule, person: person, subscribe: url, alarm: alarm, label: label)
            if url {
                Self.out(feed.url ?? "")
            } else {
                // iCalendar lines end in CRLF; nothing else from the server reaches the terminal.
                let text = feed.ics.components(separatedBy: "\r\n").map { ControlCharacters.stripped($0) }.joined(
                    separator: "\r\n")
                do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch { return .failure }
            }
            return .success
        } catch {
            return report(error)
        }
    }

    /// `calendar list`: the links this token made (an admin: the tenant's), newest last.
    public func calendarLinks() async -> ClientExitCode {
        do {
            let links = try await client.calendarLinks()
            if json {
                struct Link: Encodable { var tokenId, feed, label, created, expires, madeBy: String }
                for link in links {
                    Self.out(
                        JSONShapes.line(
                            Link(
                                tokenId: link.tokenID, feed: link.feed, label: link.label,
                                created: TimeText.iso8601(link.createdMs),
                                expires: link.expiresMs == 0 ? "" : TimeText.iso8601(link.expiresMs),
                                madeBy: link.madeBy)))
                }
                return .success
            }
            guard !links.isEmpty else {
                Self.out("No calendar links: `roster-client calendar url --schedule NAME` makes one.")
                return .success
            }
            var table = TextTable(["TOKEN", "FEED", "LABEL", "MADE (\(display.zoneName))", "EXPIRES", "MADE BY"])
            for link in links {
                table.rows.append([
                    link.tokenID, link.feed, link.label, display.dateTime(link.createdMs),
                    link.expiresMs == 0 ? "never" : display.dateTime(link.expiresMs), link.madeBy,
                ])
            }
            Self.out(table.render())
            return .success
        } catch {
            return report(error)
        }
    }

    /// `calendar revoke ID`: the link stops working at once.
    public func revokeCalendarLink(_ id: String) async -> ClientExitCode {
        do {
            try await client.revokeCalendarLink(id)
            if !json { Self.out("Revoked calendar link \(id): its URL no longer opens the feed.") }
            return .success
        } catch {
            return report(error)
        }
    }

    /// Writes `text` to standard output as it is.
    static func write(_ text: String) {
        do {
            try FileHandle.standardOutput.write(
                contentsOf: Data(ControlCharacters.stripped(text, keepLineBreaks: true).utf8))
        } catch {
            exit(0)
        }
    }

    /// The employee to update: fetched from the server so unspecified fields keep their values.
    public func currentEmployee(_ idOrName: String) async throws -> Employee {
        try await client.employee(idOrName).employee
    }

    /// Guesses an import file's format from its extension and content.
    public static func importFormat(path: String, data: Data) -> ImportFormat? {
        let lower = path.lowercased()
        if lower.hasSuffix(".csv") {
            let header =
                String(decoding: data.prefix(4096), as: UTF8.self).split(separator: "\n").first?.lowercased() ?? ""
            return header.contains("start") ? .shiftsCSV : .employeesCSV
        }
        if lower.hasSuffix(".json") {
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            if object?["roster"] != nil || object?["scheduledToday"] != nil { return .legacyAppJSON }
            // PagerDuty's REST API: {"schedule": {"schedule_layers": [...]}}.
            if (object?["schedule"] as? [String: Any])?["schedule_layers"] != nil { return .pagerDutyJSON }
            return .snapshotJSON
        }
        return nil
    }
}
