import Foundation
import PropertyBased
import RosterProtocol
import Testing

/// The report's CSV and JSON shapes (docs/REPORTS.md).
@Suite(.timeLimit(.minutes(10))) struct ReportFormatsTests {
    /// Rounded to hundredths, the categories still add up to the rounded total: a spreadsheet's
    /// sum matches.
    @Test func roundedCategoriesAddUpToTheRoundedTotal() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...400_000_000).array(of: 5)) { parts in
            var person = Roster_V1_PersonHours()
            person.categories = .with {
                $0.businessMs = Int64(parts[0])
                $0.outsideBusinessHoursMs = Int64(parts[1])
                $0.nightMs = Int64(parts[2])
                $0.weekendMs = Int64(parts[3])
                $0.holidayMs = Int64(parts[4])
            }
            person.totalMs = parts.reduce(0) { $0 + Int64($1) }
            let cents = ReportFormats.categoryHours(person).map { Int(($0 as NSString).doubleValue * 100 + 0.5) }
            let total = Int((ReportFormats.hours(person.totalMs) as NSString).doubleValue * 100 + 0.5)
            #expect(cents.reduce(0, +) == total)
        }
    }

    /// One row per person, categories adding up, a column per schedule; a name that starts
    /// like a formula is written as text.
    @Test func hoursCSVHasOneRowPerPersonAndNoFormulas() {
        let report = Roster_V1_ReportResponse.with {
            $0.people = [
                .with {
                    $0.employeeID = "e1"
                    $0.name = "=HYPERLINK(\"x\")"
                    $0.totalMs = 10 * 3_600_000
                    $0.categories = .with {
                        $0.businessMs = 3 * 3_600_000 + 1_200_000
                        $0.weekendMs = 6 * 3_600_000 + 2_400_000
                    }
                    $0.schedules = [
                        .with {
                            $0.scheduleID = "s"; $0.scheduleName = "Platform, primary"; $0.ms = 10 * 3_600_000
                        }
                    ]
                    $0.shortestRestMs = -1
                }
            ]
        }
        let lines = ReportFormats.hoursCSV(report).split(separator: "\r\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix(",\"hours: Platform, primary\""))
        #expect(lines[1].hasPrefix("\"'=HYPERLINK(\"\"x\"\")\",e1,10.00,3.33,0.00,0.00,6.67,0.00,"))
    }
}
