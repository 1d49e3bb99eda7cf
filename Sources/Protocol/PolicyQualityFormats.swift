import Foundation
import RosterDomain

/// An escalation policy's quality report (docs/ESCALATION.md, "Quality") as the JSON and CSV
/// that `report quality --policy` prints and `/v1/reports/quality?policy=` serves.
extension ReportFormats {
    struct PolicyQualityJSON: Encodable {
        struct Gap: Encodable { var start: String, end: String, hours: String }
        struct Person: Encodable { var employeeId: String, name: String }
        struct Step: Encodable {
            var level: UInt32
            var coveragePercent: Double, coveredHours: String
            var gaps: [Gap]
            var gapsOmitted: UInt32
            var onlyPerson: Person?
        }
        var from: String, to: String, now: String, zone: String
        var recordedSince: String?
        var policyId: String, policyName: String
        var steps: [Step]
        var uncovered: [Gap]
        var uncoveredOmitted: UInt32
        var uncoveredHours: [String: String]
    }

    static func gaps(_ spans: [Roster_V1_TimeSpan]) -> [PolicyQualityJSON.Gap] {
        spans.map {
            .init(
                start: TimeText.iso8601($0.startMs), end: TimeText.iso8601($0.endMs),
                hours: hours($0.endMs - $0.startMs))
        }
    }

    public static func policyQualityJSON(_ report: Roster_V1_ReportResponse) -> Data {
        let quality = report.policyQuality
        let body = PolicyQualityJSON(
            from: TimeText.iso8601(report.fromMs), to: TimeText.iso8601(report.toMs),
            now: TimeText.iso8601(report.nowMs), zone: report.zone,
            recordedSince: report.recordedSinceMs == 0 ? nil : TimeText.iso8601(report.recordedSinceMs),
            policyId: quality.policyID, policyName: quality.policyName,
            steps: quality.steps.map { step in
                .init(
                    level: step.level, coveragePercent: (step.coveragePercent * 100).rounded() / 100,
                    coveredHours: hours(step.coveredMs), gaps: gaps(step.gaps), gapsOmitted: step.gapsOmitted,
                    onlyPerson: step.onlyPersonID.isEmpty
                        ? nil : .init(employeeId: step.onlyPersonID, name: step.onlyPersonName))
            },
            uncovered: gaps(quality.uncovered), uncoveredOmitted: quality.uncoveredOmitted,
            uncoveredHours: Dictionary(
                uniqueKeysWithValues: zip(categoryNames, categoryParts(quality.uncoveredHours).map(hours))))
        return encode(body)
    }

    /// One row per step, then the stretches no step covers.
    public static func policyQualityCSV(_ report: Roster_V1_ReportResponse) -> String {
        let quality = report.policyQuality
        var lines = ["level,coverage_percent,covered_hours,gaps,only_person"]
        for step in quality.steps {
            lines.append(
                [
                    String(step.level), String(format: "%.2f", step.coveragePercent), hours(step.coveredMs),
                    String(step.gaps.count + Int(step.gapsOmitted)), field(step.onlyPersonName),
                ].joined(separator: ","))
        }
        lines.append("")
        lines.append("uncovered_start,uncovered_end,uncovered_hours")
        lines += spanRows(quality.uncovered)
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
