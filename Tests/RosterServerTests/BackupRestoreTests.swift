import Foundation
import GRDB
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTLS
import RosterTestSupport
import Testing

/// Online backup while changes stream in, and a checked restore with a new epoch.
@Suite(.timeLimit(.minutes(10))) struct BackupRestoreTests {
    @Test func aBackupTakenDuringChangesHoldsEveryChangeAcknowledgedBeforeItBegan() async throws {
        let scratch = TestScratch.directory("roster-backup")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let source = scratch.appendingPathComponent("source").path
        let backupFile = scratch.appendingPathComponent("roster.backup").path
        let acknowledgedBefore: Set<String>
        let originalEpoch: UInt64
        do {
            let harness = try await ServerHarness.start(dataDirectory: source)
            let admin = try await harness.connect(token: harness.adminToken)
            // A stream of admin changes runs from before the backup until after it.
            let progress = NIOLockedValueBox((acknowledged: [(id: String, at: Date)](), stop: false))
            let stream = Task {
                var index = 0
                while !progress.withLockedValue({ $0.stop }) {
                    let id = try await admin.addEmployee("Person", "Number \(index)")
                    progress.withLockedValue { $0.acknowledged.append((id, Date())) }
                    index += 1
                }
            }
            // Five changes on each side of the backup show it ran in the middle of the stream; more
            // proved nothing more, and beside the whole suite 20 changes sometimes took over 90 s.
            let streaming = await eventually(150) { progress.withLockedValue { $0.acknowledged.count >= 5 } }
            try #require(streaming, "the stream of changes did not start")
            let began = Date()
            try await StoreBackup.backup(databasePath: DataDirectory(source).database, to: backupFile)
            let afterwards = progress.withLockedValue { $0.acknowledged.count } + 5
            _ = await eventually(150) { progress.withLockedValue { $0.acknowledged.count >= afterwards } }
            progress.withLockedValue { $0.stop = true }
            try await stream.value
            let acknowledged = progress.withLockedValue { $0.acknowledged }
            acknowledgedBefore = Set(acknowledged.filter { $0.at < began }.map(\.id))
            #expect(
                acknowledgedBefore.count >= 5 && acknowledged.count >= acknowledgedBefore.count + 5,
                "the backup ran in the middle of the stream")
            let probe = try await harness.connect()
            originalEpoch = probe.welcome.epoch
            await probe.close()
            await admin.close()
            await harness.stop()
        }

        let summary = try await StoreBackup.check(backupFile)
        #expect(summary.tenants == ["demo"] && summary.migrations.contains("v3-schedules"))

        let target = DataDirectory(scratch.appendingPathComponent("restored").path)
        try await StoreBackup.restore(from: backupFile, into: target, replace: false)
        try await using(try await ServerHarness.start(dataDirectory: target.path)) { harness in
            let reader = try await harness.connect()
            guard case .employees(let listed) = try await reader.request(.listEmployees(.init())) else {
                throw TestFailure("no Employees")
            }
            let restored = Set(listed.employees.map(\.id))
            #expect(
                acknowledgedBefore.isSubset(of: restored), "every change acknowledged before the backup began is there")
            #expect(
                listed.revision == UInt64(restored.count), "a consistent snapshot: one revision per employee, no gap")
            #expect(reader.welcome.epoch != originalEpoch, "a restored store has a new epoch, so clients resync")
            await reader.close()
        }
    }

    /// A store whose secrets the key does not open (restored without its secrets.key) is refused
    /// at start, with the reason, and no new key is left behind; with its key back it starts.
    @Test func aStoreWithoutItsSecretsKeyIsRefusedAtStart() async throws {
        let directory = TestScratch.directory("roster-secrets-key")
        defer { TestScratch.remove(directory) }
        let first = try await ServerHarness.start(dataDirectory: directory.path, configure: WebhookTests.configure)
        try await first.stoppingOnError { harness in
            let admin = try await harness.connect()
            _ = try await WebhookTests.notificationAdmin(
                admin, .with { $0.addWebhook = .with { $0.url = "http://127.0.0.1:9/hook" } })
            await admin.close()
        }
        await first.stop()
        let keyFile = directory.appendingPathComponent("secrets.key").path
        let key = try String(contentsOfFile: keyFile, encoding: .utf8)
        try FileManager.default.removeItem(atPath: keyFile)
        do {
            let started = try await ServerHarness.start(
                dataDirectory: directory.path, configure: WebhookTests.configure)
            await started.stop()
            Issue.record("the server started with a secrets key that opens none of the store's secrets")
        } catch let error as ServerStartError {
            #expect("\(error)".contains("1 secret in the store") && "\(error)".contains("secrets.key"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: keyFile), "the key made during the refused start is not kept")
        // Another key altogether: refused too.
        try PrivateFile.write(Data(Crypto.randomBytes(32)).base64EncodedString() + "\n", to: keyFile)
        await #expect(throws: ServerStartError.self) {
            let started = try await ServerHarness.start(
                dataDirectory: directory.path, configure: WebhookTests.configure)
            await started.stop()
        }
        #expect(FileManager.default.fileExists(atPath: keyFile), "a key the operator put there stays")
        // The right key back: it starts.
        try FileManager.default.removeItem(atPath: keyFile)
        try PrivateFile.write(key, to: keyFile)
        let again = try await ServerHarness.start(dataDirectory: directory.path, configure: WebhookTests.configure)
        await again.stop()
    }

    @Test func aBadFileIsRefusedBeforeAnythingIsReplaced() async throws {
        let scratch = TestScratch.directory("roster-restore")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let target = DataDirectory(scratch.appendingPathComponent("data").path)
        // A directory with a store of its own, which a refused restore must leave alone.
        let harness = try await ServerHarness.start(dataDirectory: target.path)
        let admin = try await harness.connect(token: harness.adminToken)
        _ = try await admin.addEmployee("Ada", "Lovelace")
        await admin.close()
        await harness.stop()
        let before = try Data(contentsOf: URL(fileURLWithPath: target.database))

        let garbage = scratch.appendingPathComponent("garbage.backup").path
        try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: garbage))
        await #expect(throws: StoreBackup.Failure.self) {
            try await StoreBackup.restore(from: garbage, into: target, replace: true)
        }

        // A truncated copy of a real store.
        let truncated = scratch.appendingPathComponent("truncated.backup").path
        try before.prefix(before.count / 2).write(to: URL(fileURLWithPath: truncated))
        await #expect(throws: (any Error).self) {
            try await StoreBackup.restore(from: truncated, into: target, replace: true)
        }

        // A store from a newer release: a migration this one does not know.
        let newer = scratch.appendingPathComponent("newer.backup").path
        try await StoreBackup.backup(databasePath: target.database, to: newer)
        let queue = try DatabaseQueue(path: newer)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        try queue.close()
        do {
            try await StoreBackup.restore(from: newer, into: target, replace: true)
            Issue.record("a newer schema was restored")
        } catch let failure as StoreBackup.Failure {
            #expect(failure == .newerSchema(["v99-from-the-future"]))
        }

        // A good file onto an existing store needs --replace.
        let good = scratch.appendingPathComponent("good.backup").path
        try await StoreBackup.backup(databasePath: target.database, to: good)
        await #expect(throws: StoreBackup.Failure.targetExists(target.path)) {
            try await StoreBackup.restore(from: good, into: target, replace: false)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target.database)) == before, "nothing was replaced")
    }

    @Test func theServerBinaryBacksUpRestoresAndReports() async throws {
        try await withServerProcess { server in
            let cli = CLI(port: server.port, token: server.adminToken)
            try await cli.run(["admin", "employee", "add", "--first", "Ada", "--last", "Lovelace"])
            let file = cli.home.appendingPathComponent("roster.backup").path
            let backup = try await cli.server(["backup", "--data-dir", server.dataDirectory, "--to", file])
            #expect(
                backup.status == 0 && backup.stdout.contains("demo at revision 1"), "\(backup.stdout)\(backup.stderr)")
            let elsewhere = cli.home.appendingPathComponent("restored").path
            let restore = try await cli.server(["restore", "--from", file, "--data-dir", elsewhere])
            #expect(restore.status == 0, "\(restore.stderr)")
            let status = try await cli.server(["status", "--data-dir", elsewhere])
            #expect(
                status.stdout.contains("tenant demo: revision 1") && status.stdout.contains("schema: v1, v2-tokens"),
                "\(status.stdout)\(status.stderr)")
            // Epochs in decimal, as the protocol, the JSON and the logs give them.
            #expect(status.stdout.range(of: #"epoch [0-9]+, "#, options: .regularExpression) != nil, "\(status.stdout)")
            let again = try await cli.server(["restore", "--from", file, "--data-dir", elsewhere])
            #expect(again.status != 0 && again.stderr.contains("--replace"), "\(again.stderr)")
            // A file that is not there is named as missing, not as "not a SQLite database".
            let missing = cli.home.appendingPathComponent("missing.sqlite").path
            let absent = try await cli.server([
                "restore", "--from", missing, "--data-dir", cli.home.appendingPathComponent("other").path,
            ])
            #expect(absent.status != 0 && absent.stderr.contains("no backup file at \(missing)"), "\(absent.stderr)")
            #expect(!absent.stderr.contains("SQLite"), "\(absent.stderr)")
        }
    }
}
