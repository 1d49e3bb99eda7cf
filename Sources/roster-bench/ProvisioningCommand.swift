import ArgumentParser
import Foundation
import RosterBench

struct Provisioning: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scim",
        abstract: "SCIM provisioning against a roster-server process: users created, patched, one group of them all.")
    @Option(help: "Users provisioned.") var users = 1_000

    func run() async throws {
        let phases = try await ProvisioningBenchmark(users: users, serverExecutable: siblingExecutable("roster-server"))
            .run()
        print("SCIM provisioning, one request at a time on one keep-alive connection")
        for phase in phases {
            print(
                String(
                    format: "  %-32@ wall %.2f s  revisions %llu  server CPU %.0f ms", phase.name as NSString,
                    phase.wallSeconds, phase.revisions, phase.cpuMillis))
            print("    \(phase.latency)")
        }
    }
}
