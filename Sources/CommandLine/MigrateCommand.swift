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
    /// The export file, or the API's base URL and the file of its token (`--api`).
    public var export: Input
    public var verifyAgainst: String?
    /// The definition file written (nil: standard output).
    public var output: String?
    /// Where the report goes (nil: standard output after the summary, or standard error when the
    /// definition goes to standard output).
    public var report: String?

    public enum Input: Sendable {
        case file(String)
        /// `verifyDays`: with it, the API's own rendered list from `verifyFrom` (default now) is
        /// fetched and compared; `save`: where the fetched export is written for review.
        case api(
            url: String, tokenFile: String, caFile: String?, verifyFrom: UnixMillis?, verifyDays: Int?, save: String?)
    }

    /// The longest window fetched for verification.
    public static let maxVerifyDays = 366

    public init(source: MigrationSource, export: Input, verifyAgainst: String?, output: String?, report: String?) {
        (self.source, self.export, self.verifyAgainst, self.output, self.report) =
            (source, export, verifyAgainst, output, report)
    }

    /// Runs it against the tenant's people (`directory`; empty when offline). The reading,
    /// planning and comparing run on NIOThreadPool; the API's answers are awaited.
    public func run(directory: RosterState, now: UnixMillis = .now) async -> ClientExitCode {
        var data: Data, name: String
        var client: SourceHTTPClient?
        switch export {
        case .file(let path):
            guard let read = try? await NIOThreadPool.singleton.runIfActive({ Self.read(path) }) else {
                return .invalidInput
            }
            (data, name) = (read, path)
        case .api(let url, let tokenFile, let caFile, _, _, let save):
            do {
                client = try await NIOThreadPool.singleton.runIfActive {
                    let token = try Self.token(tokenFile)
                    return try SourceHTTPClient(base: url, headers: source.apiHeaders(token: token), caFile: caFile)
                }
                let call: SourceCall = { [client] in try await client!.send($0) }
                // Overrides from now for a year (and from the verified window's start).
                let from = min(now, verifyWindow(now: now)?.lowerBound ?? now)
                data = try await Migration.fetchExport(
                    from: source, call: call, overrides: from..<(now + 366 * 86_400_000))
                name = url
                if let save {
                    let fetched = data
                    try await NIOThreadPool.singleton.runIfActive { try AtomicFile.write(fetched, to: save) }
                }
            } catch {
                CommandRunner.err("\(url): \(error)")
                CommandRunner.err("Nothing was written.")
                return .failure
            }
        }
        let input = (data, name)
        guard
            let read = try? await NIOThreadPool.singleton.runIfActive({
                self.migrate(input.0, name: input.1, directory: directory, now: now)
            })
        else { return .invalidInput }
        let migration = read
        var rendered: (Data, String)?
        if let verifyAgainst {
            guard let file = try? await NIOThreadPool.singleton.runIfActive({ Self.read(verifyAgainst) }) else {
                return .invalidInput
            }
            rendered = (file, verifyAgainst)
        } else if let client, let window = verifyWindow(now: now) {
            do {
                let list = try await migration.fetchRendered(call: { try await client.send($0) }, window: window)
                rendered = (list, "\(client.base.absoluteString) (rendered)")
            } catch {
                CommandRunner.err("\(client.base.absoluteString): \(error)")
                return .failure
            }
        }
        let (verify, exportName) = (rendered, name)
        let outcome = try? await NIOThreadPool.singleton.runIfActive {
            self.finish(migration, name: exportName, rendered: verify, directory: directory, now: now)
        }
        return outcome ?? .failure
    }

    /// The window `--verify-days` asks the API for.
    func verifyWindow(now: UnixMillis) -> Range<UnixMillis>? {
        guard case .api(_, _, _, let from, let days?, _) = export else { return nil }
        let start = from ?? now
        return start..<(start + UnixMillis(min(max(days, 1), Self.maxVerifyDays)) * 86_400_000)
    }

    /// The export read, or nil with every problem printed.
    func migrate(_ data: Data, name: String, directory: RosterState, now: UnixMillis) -> Migration? {
        do throws(MigrationError) {
            return try Migration.read(data, from: source, name: name, directory: directory, now: now)
        } catch {
            for problem in error.problems { CommandRunner.err("\(name): \(problem)") }
            CommandRunner.err(
                "\(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") in \(name); nothing was written."
            )
            return nil
        }
    }

    /// The API token: the file's first line. It is never printed.
    static func token(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4_096 else {
            throw SourceHTTPClient.Failure(description: "\(path): cannot be read (or is over 4 KiB)")
        }
        let token =
            String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty, !token.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value > 0x7E }) else {
            throw SourceHTTPClient.Failure(description: "\(path): holds no token on its first line")
        }
        return token
    }

    func finish(
        _ migration: Migration, name: String, rendered: (Data, String)?, directory: RosterState, now: UnixMillis
    ) -> ClientExitCode {
        let definition = migration.definition(now: now, file: (name as NSString).lastPathComponent)
        var verification: MigrationVerification?
        if let (list, listName) = rendered {
            do throws(MigrationError) {
                verification = try migration.verify(
                    definition: definition, rendered: list, name: listName, directory: directory)
            } catch {
                for problem in error.problems { CommandRunner.err("\(listName): \(problem)") }
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
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        say(
            "\(output.map { "Wrote \($0)" } ?? "The definition"): \(count(state.employees.count, "person", "people")), "
                + "\(count(state.schedules.count - 1, "schedule", "schedules")), "
                + "\(count(state.escalation.policies.count, "escalation policy", "escalation policies")), "
                + "\(count(state.escalation.services.count, "service", "services")) from \(source.title).")
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
            say(
                "Not verified: give --verify-against with \(source.title)'s rendered on-call list, or --verify-days "
                    + "with --api (docs/MIGRATING.md).")
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
