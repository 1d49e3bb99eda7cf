import Foundation
import RosterProtocol

extension CommandRunner {
    /// `report quality --policy NAME`: each step's coverage and gaps, the steps that name one
    /// person only, and the time no step pages anyone (nights and weekends said apart).
    func printPolicyQuality(_ report: Roster_V1_ReportResponse, output: ReportOutput) {
        switch output {
        case .json:
            Self.out(String(decoding: ReportFormats.policyQualityJSON(report), as: UTF8.self))
            return
        case .csv:
            Self.writeCSV(ReportFormats.policyQualityCSV(report))
            return
        case .table: break
        }
        let quality = report.policyQuality
        printWindow(report, zone: report.zone)
        Self.out("Escalation policy \(quality.policyName):")
        var table = TextTable(["STEP", "COVERED", "HOURS", "GAPS", "NOTE"])
        for step in quality.steps {
            table.rows.append([
                String(step.level), String(format: "%.1f%%", step.coveragePercent), ReportFormats.hours(step.coveredMs),
                String(step.gaps.count + Int(step.gapsOmitted)),
                step.onlyPersonID.isEmpty ? "" : "only \(step.onlyPersonName): nobody else if they are away",
            ])
        }
        Self.out(table.render(indent: "  "))
        for step in quality.steps where !step.gaps.isEmpty {
            Self.out("")
            Self.out("Step \(step.level) pages nobody (the page still waits its delay):")
            gapTable(step.gaps, omitted: step.gapsOmitted)
        }
        Self.out("")
        let total = quality.uncovered.reduce(Int64(0)) { $0 + $1.endMs - $1.startMs }
        guard total > 0 else {
            Self.out("Some step pages someone at every instant of the window.")
            return
        }
        let hours = quality.uncoveredHours
        Self.out(
            "No step pages anyone for \(ReportFormats.hours(total)) h: \(ReportFormats.hours(hours.nightMs)) h at night, "
                + "\(ReportFormats.hours(hours.weekendMs)) h at weekends, \(ReportFormats.hours(hours.holidayMs)) h on holidays:"
        )
        gapTable(quality.uncovered, omitted: quality.uncoveredOmitted)
    }

    private func gapTable(_ gaps: [Roster_V1_TimeSpan], omitted: UInt32) {
        var table = TextTable(["FROM", "TO", "HOURS"])
        for gap in gaps {
            table.rows.append([
                display.dateTime(gap.startMs), display.dateTime(gap.endMs),
                ReportFormats.hours(gap.endMs - gap.startMs),
            ])
        }
        Self.out(table.render(indent: "  "))
        if omitted > 0 { Self.out("  … and \(omitted) more (ask a shorter window)") }
    }
}
