import Foundation
import NIOPosix
import RosterDomain
import RosterMigration
import RosterSystem

/// `roster-client migrate --from SOURCE EXPORT`: another system's export as a definition file
/// and a report, proved against its own rendered list with --verify-against (docs/MIGRATING.md).
/// The reading, planning and comparing run on a thread of their own (a 100-schedule export is
/// a second of work), never on the cooperative pool.
public struct MigrateRun: Sendable {
    public var source: MigrationSource
    public var export: String
    public var verifyAgainst: String?
    /// The definition file written (nil: standard output).
    public var output: String?
    /// Where the report goes (nil: standard output after the summary, or standard error when the
    /// definition goes to standard output).
    public var report: String?

    public init(source: MigrationSource, export: String, verifyAgainst: String?, output: String?, report: String?) {
        (self.source, self.export, self.verifyAgainst, self.output, self.report) =
            (source, export, verifyAgainst, output, report)
    }

    /// Runs it against the tenant's people (`directory`; empty when offline).
    public func run(directory: RosterState, now: UnixMillis = .now) async -> ClientExitCode {
        let outcome = try? await NIOThreadPool.singleton.runIfActive {
            self.runBlocking(directory: directory, now: now)
        }
        return outcome ?? .failure
    }

    func runBlocking(directory: RosterState, now: UnixMillis) -> ClientExitCode {
        guard let data = Self.read(export) else { return .invalidInput }
        let migration: Migration
        do throws(MigrationError) {
            migration = try Migration.read(
                data, from: source, name: export, directory: directory, now: now)
        } catch {
            for problem in error.problems { CommandRunner.err("\(export): \(problem)") }
            CommandRunner.err(
                "\(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") in \(export); nothing was written."
            )
            return .invalidInput
        }
        let definition = migration.definition(now: now, file: (export as NSString).lastPathComponent)
        var verification: MigrationVerification?
        if let verifyAgainst {
            guard let rendered = Self.read(verifyAgainst) else { return .invalidInput }
            do throws(MigrationError) {
                verification = try migration.verify(
                    definition: definition, rendered: rendered, name: verifyAgainst, directory: directory)
            } catch {
                for problem in error.problems { CommandRunner.err("\(verifyAgainst): \(problem)") }
                return .invalidInput
            }
        }
        // The definition on standard output keeps it clean: then everything else goes to standard error.
        let toError = output == nil
        func say(_ text: String) { toError ? CommandRunner.err(text) : CommandRunner.out(text) }
        if let output {
            do { try AtomicFile.write(definition, to: output, mode: 0o644) } catch {
                CommandRunner.err("\(output): \(error)")
                return .failure
            }
        } else {
            CommandRunner.out(definition)
        }
        let state = migration.state
        say(
            "\(output.map { "Wrote \($0)" } ?? "The definition"): \(state.employees.count) people, "
                + "\(state.schedules.count - 1) schedules, \(state.escalation.policies.count) escalation policies, "
                + "\(state.escalation.services.count) services from \(source.title).")
        if let report {
            do { try AtomicFile.write(migration.report.text, to: report, mode: 0o644) } catch {
                CommandRunner.err("\(report): \(error)")
                return .failure
            }
            say("The report is in \(report).")
        } else {
            say(migration.report.text)
        }
        guard let verification else {
            say("Not verified: give --verify-against with \(source.title)'s rendered on-call list (docs/MIGRATING.md).")
            return .success
        }
        say(verification.text.trimmingCharacters(in: .newlines))
        return verification.differences.isEmpty ? .success : .differencesFound
    }

    /// A file's bytes, or nil with what is wrong printed. Its size is checked before it is read.
    static func read(_ path: String) -> Data? {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        guard let size else {
            CommandRunner.err("\(path): cannot be read")
            return nil
        }
        guard size <= Migration.maxExportBytes else {
            CommandRunner.err(
                "\(path): is larger than \(Migration.maxExportBytes / 1_048_576) MiB: not an export this reads")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            CommandRunner.err("\(path): cannot be read")
            return nil
        }
        return data
    }
}

extension CommandRunner {
    /// `migrate`, with people matched by e-mail against the tenant's directory.
    public func migrate(_ run: MigrateRun) async -> ClientExitCode {
        let directory: RosterState
        do {
            directory = try await client.refreshCache().state
        } catch {
            Self.err(
                "People are matched by e-mail against the tenant's directory; give --offline to migrate without it.")
            return report(error)
        }
        return await run.run(directory: directory)
    }
}
