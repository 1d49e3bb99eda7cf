import Foundation
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// `roster-server backup --into DIR --keep N`, what the Kubernetes backup CronJob runs: backups
/// named for their instant, the oldest beyond N removed after the new one is checked, nothing
/// else in the directory touched, and --keep range-checked.
@Suite(.timeLimit(.minutes(10)))
struct BackupRotationTests {
    @Test func namesSortInTimeOrderAndOnlyTheirFormCounts() {
        let name = BackupRotation.fileName(at: Date(timeIntervalSince1970: 1_795_831_200))  // 2026-11-28 02:00:00 UTC
        #expect(name == "roster-20261128T020000Z.sqlite")
        #expect(BackupRotation.isBackupName(name))
        #expect(
            BackupRotation.fileName(at: Date(timeIntervalSince1970: 1_795_831_199))
                < BackupRotation.fileName(at: Date(timeIntervalSince1970: 1_795_831_200)))
        for other in [
            "roster.sqlite", "roster-20261128T020000Z.sqlite-wal", "notes-20261128T020000Z.sqlite",
            "roster-2026112xT020000Z.sqlite", "roster-20261128X020000Z.sqlite",
        ] {
            #expect(!BackupRotation.isBackupName(other), "\(other)")
        }
    }

    @Test func theOldestBeyondKeepGoAndEverythingElseStays() async throws {
        try await withServerProcess { server in
            let backups = TestScratch.directory("roster-backups")
            defer { TestScratch.remove(backups) }
            let foreign = backups.appendingPathComponent("keep-me.txt")
            try Data("not a backup".utf8).write(to: foreign)
            let database = server.dataDirectory + "/roster.sqlite"
            var outcomes: [BackupRotation.Outcome] = []
            for hour in 0..<3 {
                outcomes.append(
                    try await BackupRotation.backup(
                        databasePath: database, into: backups.path, keep: 2,
                        now: Date(timeIntervalSince1970: 1_795_831_200 + Double(hour) * 3_600)))
            }
            #expect(outcomes.map(\.removed) == [[], [], ["roster-20261128T020000Z.sqlite"]])
            #expect(outcomes.allSatisfy { $0.summary.tenants == ["demo"] })
            let left = try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted()
            #expect(left == ["keep-me.txt", "roster-20261128T030000Z.sqlite", "roster-20261128T040000Z.sqlite"])
            // A second backup in the same second is refused, not written over.
            await #expect(throws: StoreBackup.Failure.self) {
                try await BackupRotation.backup(
                    databasePath: database, into: backups.path, keep: 2,
                    now: Date(timeIntervalSince1970: 1_795_831_200 + 2 * 3_600))
            }
        }
    }

    @Test func theCommandWritesIntoADirectoryAndChecksKeep() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            defer { TestScratch.remove(cli.home) }
            let into = cli.home.appendingPathComponent("backups").path
            let backup = try await cli.server(["backup", "--data-dir", server.dataDirectory, "--into", into])
            #expect(
                backup.status == 0 && backup.stdout.contains("to \(into)/roster-"), "\(backup.stdout)\(backup.stderr)")
            for (arguments, message) in [
                (["--into", into, "--keep", "0"], "--keep is 1 to 1000"),
                (["--into", into, "--keep", "1001"], "--keep is 1 to 1000"),
                (["--into", into, "--to", into + "/x.sqlite"], "give --to FILE or --into DIRECTORY"),
                ([], "give --to FILE or --into DIRECTORY"),
            ] {
                let refused = try await cli.server(["backup", "--data-dir", server.dataDirectory] + arguments)
                #expect(refused.status == 64 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
            }
        }
    }
}
