import Foundation
import RosterDomain

/// A report's outward shapes, JSON and CSV: the same text from `roster-client report` and from
/// `/v1/reports/…` (docs/REPORTS.md).
public enum ReportFormats {
    /// Hours with two decimals, as text; the parts of a whole rounded so that they add up to the
    /// whole as rounded (largest remainder), so a spreadsheet's sum of the categories is the total.
    public static func hours(_ milliseconds: Int64) -> String { hundredths(rounded(milliseconds)) }

    static let hundredth: Int64 = 36_000  // 0.01 h in milliseconds

    static func rounded(_ milliseconds: Int64) -> Int64 { (milliseconds + hundredth / 2) / hundredth }

    static func hundredths(_ value: Int64) -> String {
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let cents = magnitude % 100
        return "\(sign)\(magnitude / 100).\(cents < 10 ? "0" : "")\(cents)"
    }

    /// `parts` in hundredths of an hour, adding up to `total` rounded.
    static func apportioned(_ parts: [Int64], total: Int64) -> [Int64] {
        var units = parts.map { $0 / hundredth }
        let target = rounded(total)
        var order = parts.indices.sorted { (parts[$0] % hundredth, $1) > (parts[$1] % hundredth, $0) }
        var missing = target - units.reduce(0, +)
        while missing > 0, !order.isEmpty {
            units[order.removeFirst()] += 1
            missing -= 1
        }
        return units
    }

    static func categoryParts(_ categories: Roster_V1_CategoryHours) -> [Int64] {
        [
            categories.businessMs, categories.outsideBusinessHoursMs, categories.nightMs, categories.weekendMs,
            categories.holidayMs,
        ]
    }

    /// A person's five category hours as text, adding up to their total as `hours` writes it.
    public static func categoryHours(_ person: Roster_V1_PersonHours) -> [String] {
        apportioned(categoryParts(person.categories), total: person.totalMs).map(hundredths)
    }

    static let categoryNames = ["business", "outside_business_hours", "night", "weekend", "holiday"]

    /// The hours table's columns after the person's name, as `report hours` prints them and the
    /// web's hours page shows them: one list, so the two never differ.
    public static let personColumns = [
        "Total", "Business", "Outside", "Night", "Weekend", "Holiday", "Override", "Cover taken",
        "Cover given", "Periods", "Stretches", "Longest", "Shortest rest",
    ]

    /// One person's row under `personColumns`.
    public static func personRow(_ person: Roster_V1_PersonHours) -> [String] {
        [hours(person.totalMs)] + categoryHours(person)
            + [
                hours(person.overrideMs), hours(person.coverTakenMs), hours(person.coverGivenMs),
                "\(person.outOfHoursPeriods)",
                "\(person.stretches)", hours(person.longestStretchMs),
                person.shortestRestMs < 0 ? "-" : hours(person.shortestRestMs),
            ]
    }

    // MARK: CSV

    /// One row per person: the totals, the five categories (adding up to the total), the
    /// override and cover hours, the counts, and one column per schedule.
    public static func hoursCSV(_ report: Roster_V1_ReportResponse) -> String {
        var schedules: [(id: String, name: String)] = []
        for person in report.people {
            for schedule in person.schedules where !schedules.contains(where: { $0.id == schedule.scheduleID }) {
                schedules.append((schedule.scheduleID, schedule.scheduleName))
            }
        }
        schedules.sort { ($0.name, $0.id) < ($1.name, $1.id) }
        var header = [
            "person", "employee_id", "total_hours", "business_hours", "outside_business_hours", "night_hours",
            "weekend_hours",
            "holiday_hours",
        ]
        header += [
            "override_hours", "cover_taken_hours", "cover_given_hours", "out_of_hours_periods", "stretches",
            "longest_stretch_hours", "shortest_rest_hours",
        ]
        header += schedules.map { "hours: \($0.name)" }
        var lines = [header.map(field).joined(separator: ",")]
        for person in report.people {
            var row = [person.name, person.employeeID, hours(person.totalMs)]
            row += apportioned(categoryParts(person.categories), total: person.totalMs).map(hundredths)
            row += [
                hours(person.overrideMs), hours(person.coverTakenMs), hours(person.coverGivenMs),
                "\(person.outOfHoursPeriods)",
                "\(person.stretches)", hours(person.longestStretchMs),
                person.shortestRestMs < 0 ? "" : hours(person.shortestRestMs),
            ]
            row += schedules.map { schedule in
                person.schedules.first { $0.scheduleID == schedule.id }.map { hours($0.ms) } ?? hours(0)
            }
            lines.append(row.map(field).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The quality report as CSV: one row per participant, then the gaps.
    public static func qualityCSV(_ report: Roster_V1_ReportResponse) -> String {
        let quality = report.quality
        var lines = ["person,employee_id,hours,above_mean_hours"]
        for person in quality.people {
            let above = max(0, person.totalMs - quality.meanMs)
            lines.append(
                [person.name, person.employeeID, hours(person.totalMs), hours(above)].map(field).joined(separator: ","))
        }
        lines.append("")
        lines.append("gap_start,gap_end,gap_hours")
        lines += spanRows(quality.gaps)
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A CSV row per stretch: start, end, hours.
    static func spanRows(_ spans: [Roster_V1_TimeSpan]) -> [String] {
        spans.map {
            [TimeText.iso8601($0.startMs), TimeText.iso8601($0.endMs), hours($0.endMs - $0.startMs)].joined(
                separator: ",")
        }
    }

    /// Quoted as every CSV of ours is (`RosterExport.csvField`, RFC 4180); a leading =, +, - or @
    /// is prefixed with ' first, so that a spreadsheet never runs a name as a formula.
    static func field(_ text: String) -> String {
        guard let first = text.first, "=+-@".contains(first), Double(text) == nil else {
            return RosterExport.csvField(text)
        }
        return RosterExport.csvField("'" + text)
    }

    // MARK: JSON

    struct HoursJSON: Encodable {
        struct Schedule: Encodable {
            var id: String, name: String, hours: String, ms: Int64
        }
        struct Person: Encodable {
            var employeeId: String, name: String
            var totalHours: String, totalMs: Int64
            var categories: [String: String]
            var categoriesMs: [String: Int64]
            var overrideHours: String, coverTakenHours: String, coverGivenHours: String
            var outOfHoursPeriods: UInt32, stretches: UInt32
            var longestStretchHours: String
            var shortestRestHours: String?
            var schedules: [Schedule]
        }
        var from: String, to: String, now: String, zone: String
        var recordedSince: String?
        var people: [Person]
    }

    struct QualityJSON: Encodable {
        struct Person: Encodable { var employeeId: String, name: String, hours: String, aboveMeanHours: String }
        struct Gap: Encodable { var start: String, end: String, hours: String }
        var from: String, to: String, now: String
        var recordedSince: String?
        var scheduleId: String, scheduleName: String
        var coveragePercent: Double, coveredHours: String
        var gaps: [Gap]
        var gapsOmitted: UInt32
        var balance: Double, equity: Double, meanHours: String
        var people: [Person]
    }

    public static func hoursJSON(_ report: Roster_V1_ReportResponse) -> Data {
        let body = HoursJSON(
            from: TimeText.iso8601(report.fromMs), to: TimeText.iso8601(report.toMs),
            now: TimeText.iso8601(report.nowMs),
            zone: report.zone,
            recordedSince: report.recordedSinceMs == 0 ? nil : TimeText.iso8601(report.recordedSinceMs),
            people: report.people.map { person in
                let parts = categoryParts(person.categories)
                let units = apportioned(parts, total: person.totalMs)
                return HoursJSON.Person(
                    employeeId: person.employeeID, name: person.name, totalHours: hours(person.totalMs),
                    totalMs: person.totalMs,
                    categories: Dictionary(uniqueKeysWithValues: zip(categoryNames, units.map(hundredths))),
                    categoriesMs: Dictionary(uniqueKeysWithValues: zip(categoryNames, parts)),
                    overrideHours: hours(person.overrideMs), coverTakenHours: hours(person.coverTakenMs),
                    coverGivenHours: hours(person.coverGivenMs),
                    outOfHoursPeriods: person.outOfHoursPeriods, stretches: person.stretches,
                    longestStretchHours: hours(person.longestStretchMs),
                    shortestRestHours: person.shortestRestMs < 0 ? nil : hours(person.shortestRestMs),
                    schedules: person.schedules.map {
                        .init(id: $0.scheduleID, name: $0.scheduleName, hours: hours($0.ms), ms: $0.ms)
                    })
            })
        return encode(body)
    }

    public static func qualityJSON(_ report: Roster_V1_ReportResponse) -> Data {
        let quality = report.quality
        let body = QualityJSON(
            from: TimeText.iso8601(report.fromMs), to: TimeText.iso8601(report.toMs),
            now: TimeText.iso8601(report.nowMs),
            recordedSince: report.recordedSinceMs == 0 ? nil : TimeText.iso8601(report.recordedSinceMs),
            scheduleId: quality.scheduleID, scheduleName: quality.scheduleName,
            coveragePercent: (quality.coveragePercent * 100).rounded() / 100, coveredHours: hours(quality.coveredMs),
            gaps: quality.gaps.map {
                .init(
                    start: TimeText.iso8601($0.startMs), end: TimeText.iso8601($0.endMs),
                    hours: hours($0.endMs - $0.startMs))
            },
            gapsOmitted: quality.gapsOmitted, balance: (quality.balance * 100).rounded() / 100,
            equity: (quality.equity * 100).rounded() / 100,
            meanHours: hours(quality.meanMs),
            people: quality.people.map {
                .init(
                    employeeId: $0.employeeID, name: $0.name, hours: hours($0.totalMs),
                    aboveMeanHours: hours(max(0, $0.totalMs - quality.meanMs)))
            })
        return encode(body)
    }

    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }
}
