import Foundation
import RosterMigration
import Testing

/// Each source's reader refuses the others' samples as foreign, before reading a field.
@Suite(.timeLimit(.minutes(10))) struct ForeignExportTests {
    @Test func eachReaderRefusesTheOtherSourcesExports() throws {
        var samples: [(MigrationSource, String)] = []
        for (source, file) in [
            (MigrationSource.pagerDuty, "pagerduty-export.json"), (.opsgenie, "opsgenie-export.json"),
            (.goAlert, "goalert-export.json"),
        ] {
            samples.append(
                (
                    source,
                    try String(contentsOf: MigrationFixtures.examples.appendingPathComponent(file), encoding: .utf8)
                ))
        }
        samples.append(
            (
                .grafanaOnCall,
                String(
                    decoding: GrafanaOnCallMigrationTests.files(GrafanaOnCallMigrationTests.cases[0]).export,
                    as: UTF8.self)
            ))
        for (source, text) in samples {
            #expect(MigrationFixtures.problems(text, from: source).isEmpty, "\(source)")
            for other in MigrationSource.allCases where other != source {
                let problems = MigrationFixtures.problems(text, from: other)
                #expect(
                    problems.count == 1 && problems[0].contains("is not a"), "\(source) read as \(other): \(problems)")
            }
        }
    }
}
