import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

/// How `report` prints: a table for people, or the JSON and CSV that `/v1/reports/…` serves.
public enum ReportOutput: String, Sendable {
    case table, json, csv
}

extension CommandRunner {
    /// `report hours` and `report quality`: the server's answer in `output`'s shape.
    public func report(_ request: Roster_V1_GetReportRequest, output: ReportOutput) async -> ClientExitCode {
        do {
            let report = try await client.report(request)
            switch (request.kind, output) {
            case (.quality, _) where report.hasPolicyQuality: printPolicyQuality(report, output: output)
            case (.quality, .json): Self.out(String(decoding: ReportFormats.qualityJSON(report), as: UTF8.self))
            case (.quality, .csv): Self.writeCSV(ReportFormats.qualityCSV(report))
            case (.quality, .table): printQuality(report)
            case (_, .json): Self.out(String(decoding: ReportFormats.hoursJSON(report), as: UTF8.self))
            case (_, .csv): Self.writeCSV(ReportFormats.hoursCSV(report))
            case (_, .table): printHours(report)
            }
            return .success
        } catch {
            return self.report(error)
        }
    }

    /// CSV as is (CRLF line ends, no stripping): a spreadsheet reads it.
    static func writeCSV(_ text: String) {
        do { try FileHandle.standardOutput.write(contentsOf: Data(text.utf8)) } catch { exit(0) }
    }

    /// Where the numbers come from: the record before now, the plan after.
    func printWindow(_ report: Roster_V1_ReportResponse, zone: String?) {
        // Each time labelled with the zone it is shown in (the display's, not the counting zone).
        var head = "From \(display.dateTime(report.fromMs)) to \(display.dateTime(report.toMs)) \(display.zoneName)"
        if let zone { head += "; days and hours counted in \(zone)" }
        Self.out(head + ".")
        var sources: [String] = []
        if report.nowMs > report.fromMs {
            if report.recordedSinceMs > 0 {
                sources.append(
                    "before \(display.dateTime(report.recordedSinceMs)) \(display.zoneName) as the schedules are defined now "
                        + "(the duty record begins then)")
            }
            sources.append("up to now what happened")
        }
        if report.nowMs < report.toMs { sources.append("from now on the plan") }
        Self.out("Counted: " + sources.joined(separator: "; ") + ".")
        Self.out("")
    }

    private func printHours(_ report: Roster_V1_ReportResponse) {
        printWindow(report, zone: report.zone)
        guard !report.people.isEmpty else {
            Self.out("Nobody is on duty in this window.")
            return
        }
        var table = TextTable((["Person"] + ReportFormats.personColumns).map { $0.uppercased() })
        for person in report.people { table.rows.append([person.name] + ReportFormats.personRow(person)) }
        Self.out(table.render())
        Self.out("")
        Self.out(
            "Hours. BUSINESS + OUTSIDE + NIGHT + WEEKEND + HOLIDAY = TOTAL (each hour in one of them); --csv has each schedule's hours."
        )
    }

    private func printQuality(_ report: Roster_V1_ReportResponse) {
        let quality = report.quality
        printWindow(report, zone: nil)
        Self.out(
            "\(quality.scheduleName): covered \(String(format: "%.1f", quality.coveragePercent))% of the window "
                + "(\(ReportFormats.hours(quality.coveredMs)) h); equity \(String(format: "%.1f", quality.equity)), "
                + "balance \(String(format: "%.1f", quality.balance)) (Grafana OnCall's score).")
        if quality.gaps.isEmpty {
            Self.out("No gaps: someone is on duty at every instant.")
        } else {
            Self.out("")
            Self.out("Gaps (nobody on duty), \(quality.gaps.count + Int(quality.gapsOmitted)):")
            var table = TextTable(["FROM", "TO", "HOURS"])
            for gap in quality.gaps {
                table.rows.append([
                    display.dateTime(gap.startMs), display.dateTime(gap.endMs),
                    ReportFormats.hours(gap.endMs - gap.startMs),
                ])
            }
            Self.out(table.render(indent: "  "))
            if quality.gapsOmitted > 0 { Self.out("  … and \(quality.gapsOmitted) more (ask a shorter window)") }
        }
        Self.out("")
        Self.out("Hours per person (mean \(ReportFormats.hours(quality.meanMs))):")
        var table = TextTable(["PERSON", "HOURS", "ABOVE MEAN"])
        for person in quality.people {
            let above = person.totalMs - quality.meanMs
            table.rows.append([
                person.name, ReportFormats.hours(person.totalMs), above > 0 ? "+" + ReportFormats.hours(above) : "",
            ])
        }
        Self.out(table.render(indent: "  "))
    }
}
