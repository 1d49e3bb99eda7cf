import ArgumentParser
import RosterCommandLine

/// `roster-client login`: sign in as yourself through the server's web app (docs/SSO.md).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Act as yourself: approve this terminal in the web app (docs/SSO.md).",
        discussion: """
            Prints a page of the server's web app and a code; open it where you can sign in (with your \
            organisation's account, or a token), check the code and allow it. With --browser, the page \
            opens in this machine's browser ($BROWSER, else xdg-open) and comes back to roster-client on \
            127.0.0.1 by itself. The token roster-client gets acts as you, with your role, for an hour, \
            renewed with its refresh secret; both are kept 0600 in $XDG_CONFIG_HOME/roster/tokens/ and \
            used for that server only, when no other token is given.
            """)
    @OptionGroup var options: ConnectionOptions
    @Option(help: "The web app's address (default: the server's host, port 7480).") var web: String?
    @Flag(help: "Open the page in a browser on this machine, which sends the login back to roster-client.")
    var browser = false

    func run() async throws { try await options.runner().login(web: web, browser: browser).exit() }
}

/// `roster-client logout`: the token `login` got is revoked and forgotten.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Revoke the token roster-client login got, and forget it.")
    @OptionGroup var options: ConnectionOptions
    @Option(help: "The web app's address (default: the server's host, port 7480).") var web: String?

    func run() async throws { try await options.runner().logout(web: web).exit() }
}
