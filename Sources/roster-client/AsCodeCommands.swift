import ArgumentParser
import Foundation
import RosterCommandLine

/// `roster-client plan -f FILE`: what applying a definition file would change.
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Show what applying a definition file would change (docs/AS-CODE.md).",
        discussion: """
            Reads FILE (YAML, as `export --format yaml` writes it) and prints each object it would \
            create, change (field by field) or, with --prune, delete, then who would gain or lose \
            which stretch of duty. Exits 0 when there is nothing to do and 2 when there are changes, \
            like `terraform plan -detailed-exitcode`; problems in the file are listed with their line \
            and column (exit 9). Needs an admin token.
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(name: .shortAndLong, help: "The definition file; - reads standard input.") var file: String
    @Flag(help: "Also delete what the file's sections do not hold.") var prune = false

    func run() async throws {
        let runner = try options.runner()
        guard let definition = CommandRunner.readDefinition(file) else { try ClientExitCode.invalidInput.exit() }
        try await runner.plan(definition, prune: prune).exit()
    }
}

/// `roster-client apply -f FILE`: a definition file as one revision.
struct ApplyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Apply a definition file to the tenant as one change (docs/AS-CODE.md).",
        discussion: """
            The whole file is one revision: all of it is applied or nothing is. Objects keep the ids \
            the file gives, so a new name in the file renames. A second apply of the same file \
            changes nothing. With --expect-revision N (as `plan` prints it) the apply is refused if \
            anything changed the tenant since the plan. At a terminal the plan is shown and \
            confirmed first unless --yes; elsewhere --yes is required. Needs an admin token.
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(name: .shortAndLong, help: "The definition file; - reads standard input.") var file: String
    @Flag(help: "Also delete what the file's sections do not hold.") var prune = false
    @Flag(name: .shortAndLong, help: "Do not ask first.") var yes = false
    @Option(help: "Refuse unless the tenant is still at this revision (the one `plan` printed).") var expectRevision:
        UInt64?
    @OptionGroup var why: ReasonOption

    func run() async throws {
        var confirm: ((String) -> Bool)?
        if !yes {
            guard isatty(STDIN_FILENO) == 1, file != "-" else {
                throw ValidationError(
                    "apply changes the tenant: confirm with --yes (look first with `roster-client plan -f \(file)`)")
            }
            confirm = { prompt in
                FileHandle.standardError.write(Data(prompt.utf8))
                return ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
            }
        }
        let runner = try options.runner()
        guard let definition = CommandRunner.readDefinition(file) else { try ClientExitCode.invalidInput.exit() }
        try await runner.apply(
            definition, prune: prune, expectRevision: expectRevision, reason: why.reason, confirm: confirm
        ).exit()
    }
}
