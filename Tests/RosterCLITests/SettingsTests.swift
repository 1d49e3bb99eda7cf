import Foundation
import RosterClient
import RosterCommandLine
import RosterDomain
import RosterTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct SettingsTests {
    func configFile(_ text: String) throws -> URL {
        let url = TestScratch.directory("roster-config").appendingPathComponent("config")
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url
    }

    @Test func flagsBeatEnvironmentWhichBeatsTheConfigFile() throws {
        let file = try configFile(
            "# my roster\nserver = file.example:1\ntenant = from-file\ncache-dir = /tmp/file-cache\n")
        let fileOnly = try ClientSettings.resolve(flags: .init(), environment: [:], configFile: file)
        #expect(fileOnly.server == "file.example:1" && fileOnly.tenant == "from-file")
        #expect(fileOnly.cacheDirectory.path == "/tmp/file-cache")

        let environment = ["ROSTER_SERVER": "env.example:2", "ROSTER_TENANT": "from-env"]
        let fromEnvironment = try ClientSettings.resolve(flags: .init(), environment: environment, configFile: file)
        #expect(fromEnvironment.server == "env.example:2" && fromEnvironment.tenant == "from-env")
        #expect(fromEnvironment.cacheDirectory.path == "/tmp/file-cache", "unset in the environment: the file's value")

        let fromFlags = try ClientSettings.resolve(
            flags: .init(server: "flag.example:3"), environment: environment, configFile: file)
        #expect(fromFlags.server == "flag.example:3" && fromFlags.tenant == "from-env")
        #expect(fromFlags.hostAndPort! == ("flag.example", 3))
    }

    @Test func tokensComeFromFlagFileEnvironmentOrConfig() throws {
        let tokenFile = try configFile("  secret-from-file \n")
        let config = try configFile("token-file = \(tokenFile.path)\n")
        #expect(
            try ClientSettings.resolve(flags: .init(), environment: [:], configFile: config).token == "secret-from-file"
        )
        #expect(
            try ClientSettings.resolve(flags: .init(), environment: ["ROSTER_TOKEN": "env"], configFile: config).token
                == "env")
        #expect(
            try ClientSettings.resolve(
                flags: .init(token: "flag"), environment: ["ROSTER_TOKEN": "env"], configFile: config
            )
            .token == "flag")
        #expect(
            try ClientSettings.resolve(
                flags: .init(tokenFile: tokenFile.path), environment: ["ROSTER_TOKEN": "env"],
                configFile: config
            ).token == "secret-from-file")
        #expect(throws: ClientSettings.Problem.unreadableTokenFile("/nonexistent/token")) {
            try ClientSettings.resolve(
                flags: .init(tokenFile: "/nonexistent/token"), environment: [:], configFile: config)
        }
        // An empty token file is refused, not taken as "no token" (issue #31).
        let empty = try configFile(" \n")
        #expect(throws: ClientSettings.Problem.emptyTokenFile(empty.path)) {
            try ClientSettings.resolve(flags: .init(tokenFile: empty.path), environment: [:], configFile: config)
        }
        #expect(throws: ClientSettings.Problem.badTimeout("90")) {
            try ClientSettings.resolve(flags: .init(timeout: "90"), environment: [:], configFile: config)
        }
    }

    @Test func severalNodesAreTriedInTheOrderGiven() throws {
        let settings = try ClientSettings.resolve(
            flags: .init(server: "10.0.0.1:7401, node-b:7402"), environment: [:],
            configFile: URL(fileURLWithPath: "/nonexistent"))
        let configuration = settings.clientConfiguration()
        #expect(
            configuration.servers == [HostPort(host: "10.0.0.1", port: 7401), HostPort(host: "node-b", port: 7402)])
        #expect(configuration.host == "10.0.0.1" && configuration.port == 7401)
        // One cache for the cluster, whichever node answers.
        #expect(configuration.serverName == "10.0.0.1:7401,node-b:7402")
    }

    @Test func badValuesAreNamed() throws {
        #expect(throws: ClientSettings.Problem.badServer("no-port")) {
            try ClientSettings.resolve(
                flags: .init(server: "no-port"), environment: [:], configFile: URL(fileURLWithPath: "/nonexistent"))
        }
        #expect(throws: ClientSettings.Problem.badServer("a:7401,no-port")) {
            try ClientSettings.resolve(
                flags: .init(server: "a:7401,no-port"), environment: [:],
                configFile: URL(fileURLWithPath: "/nonexistent"))
        }
        let broken = try configFile("server = a:1\nthis line has no equals sign\n")
        #expect(
            throws: ClientSettings.Problem.badConfigLine(
                file: broken.path, line: 2, text: "this line has no equals sign")
        ) {
            try ClientSettings.resolve(flags: .init(), environment: [:], configFile: broken)
        }
    }
}
