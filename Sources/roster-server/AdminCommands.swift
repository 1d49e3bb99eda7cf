import ArgumentParser
import Foundation
import RosterDomain
import RosterStore
import RosterStoreSQLite
import RosterServer
import RosterServerCore
import RosterStorePostgres

/// Options every store command shares.
struct DataDirectoryOption: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: "The server's data directory. (env: ROSTER_DATA_DIR; default: ./roster-data)")
    var dataDirectory: String?

    @Option(
        help:
            "The server's database, if not SQLite in --data-dir: sqlite:PATH or postgres://USER@HOST[:PORT]/DATABASE. (env: ROSTER_STORE)"
    )
    var store: String?

    var path: String { dataDirectory ?? ProcessInfo.processInfo.environment["ROSTER_DATA_DIR"] ?? "./roster-data" }

    var location: StoreLocation? {
        get throws {
            try (store ?? ProcessInfo.processInfo.environment["ROSTER_STORE"]).map { try StoreLocation(parsing: $0) }
        }
    }

    /// For commands that work on the SQLite file itself.
    func requireEmbedded(_ command: String, instead: String) throws {
        if case .postgres = try location {
            throw ValidationError("`\(command)` works on the embedded SQLite store; for PostgreSQL use \(instead)")
        }
    }

    func open() async throws -> StoreAdministration {
        if let location = try location {
            return StoreAdministration(store: try await location.open(with: .withPostgreSQL))
        }
        return try await StoreAdministration.open(dataDirectory: path)
    }
}

extension AccessRole: ExpressibleByArgument {}

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Create, list and revoke access tokens.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create a token and print it (it is shown only once).",
            discussion:
                "Readers may query and subscribe; admins may also change the plan. A running server accepts the token within a second."
        )
        @OptionGroup var store: DataDirectoryOption
        @Option(help: "The tenant the token opens.") var tenant: String
        @Option(help: "reader or admin.") var role: AccessRole?
        @Flag(help: "A calendar token: it opens the iCalendar feed of --schedule or --person and nothing else.")
        var calendar = false
        @Option(help: "With --calendar: the schedule (id or name) whose feed it opens.") var schedule: String?
        @Option(help: "With --calendar: the person (id or full name) whose feed it opens.") var person: String?
        @Option(help: "Lifetime, e.g. 30d, 12h, 90m (default: no expiry).") var expires: String?
        @Option(help: "A note shown by `token list`.") var label: String = ""
        @Option(
            help:
                "The person who holds it (id or full name): with it they act for themselves (take duty, ask for cover, their hours, My shifts) where a schedule allows."
        )
        var employee: String?

        func validate() throws {
            if calendar {
                guard role == nil || role == .calendar else {
                    throw ValidationError("--calendar tokens have no --role")
                }
                guard (schedule == nil) != (person == nil) else {
                    throw ValidationError("--calendar takes --schedule or --person (one)")
                }
            } else {
                guard let role, role != .calendar else {
                    throw ValidationError("--role reader or admin is required (or --calendar)")
                }
                guard schedule == nil, person == nil else {
                    throw ValidationError("--schedule and --person go with --calendar")
                }
            }
            if let expires, StoreAdministration.parseDuration(expires) == nil {
                throw ValidationError(
                    "--expires takes a number and a unit s, m, h, d or w, e.g. 30d (got \"\(expires)\")")
            }
        }

        func run() async throws {
            let administration = try await store.open()
            let created: (text: String, token: StoredToken)
            do {
                let lifetime = expires.flatMap(StoreAdministration.parseDuration)
                created =
                    calendar
                    ? try await administration.createCalendarToken(
                        tenant: tenant, schedule: schedule, person: person,
                        expiresIn: lifetime, label: label)
                    : try await administration.createToken(
                        tenant: tenant, role: role ?? .reader, expiresIn: lifetime, label: label,
                        employee: employee)
            } catch {
                await administration.close()
                throw error
            }
            await administration.close()
            print(created.text)
            if calendar {
                FileHandle.standardError.write(
                    Data(
                        """
                        token \(created.token.id): calendar of tenant \(tenant) (\(created.token.scope ?? "")); \
                        its feed: http://HOST:7480/v1/calendar/\(created.text).ics (https off loopback)

                        """.utf8))
            } else {
                FileHandle.standardError.write(
                    Data("token \(created.token.id): \(created.token.role.rawValue) of tenant \(tenant)\n".utf8))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List tokens (never their secrets).")
        @OptionGroup var store: DataDirectoryOption

        func run() async throws {
            let administration = try await store.open()
            let tokens = try await administration.tokens()
            let holders = try await administration.tokenHolders(tokens)
            await administration.close()
            let now = Date()
            print(
                ["ID", "TENANT", "ROLE", "PERSON", "CREATED", "EXPIRES", "STATUS", "FEED", "MINTED-BY", "LABEL"].joined(
                    separator: "\t"))
            for token in tokens {
                let status =
                    token.revokedAt != nil
                    ? "revoked"
                    : token.isUsable(at: Int64(now.timeIntervalSince1970 * 1000)) ? "active" : "expired"
                // A label may come from a client (a calendar subscribed over the protocol): never
                // let it drive the terminal.
                // The person a token names (a deleted one by id); "-" for a token of nobody.
                let person = token.employeeID.map { holders[token.tenantID]?[$0] ?? $0 } ?? "-"
                print(
                    [
                        token.id, token.tenantID, token.role.rawValue, ControlCharacters.stripped(person),
                        Self.time(token.createdAt),
                        token.expiresAt.map(Self.time) ?? "never", status, token.scope ?? "-", token.mintedBy ?? "-",
                        ControlCharacters.stripped(token.label),
                    ].joined(separator: "\t"))
            }
        }

        static func time(_ millis: Int64) -> String {
            Date(timeIntervalSince1970: Double(millis) / 1000).formatted(.iso8601)
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a token; a running server closes its connections within a second.")
        @OptionGroup var store: DataDirectoryOption
        @Argument(help: "The token's id (from `token list`) or the token itself.") var id: String

        func run() async throws {
            let administration = try await store.open()
            try await administration.revokeToken(id)
            await administration.close()
            print("revoked \(id)")
        }
    }
}

struct TenantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenant", abstract: "Create and list tenants.", subcommands: [Create.self, List.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Create an empty tenant (a running server serves it within a second).")
        @OptionGroup var store: DataDirectoryOption
        @Argument(help: "Tenant id: lowercase letters, digits, '-' or '_'.") var id: String
        @Option(help: "Display name.") var name: String = ""

        func run() async throws {
            let administration = try await store.open()
            try await administration.createTenant(id: id, name: name)
            await administration.close()
            print("created tenant \(id)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List tenant ids.")
        @OptionGroup var store: DataDirectoryOption

        func run() async throws {
            let administration = try await store.open()
            for id in try await administration.tenantIDs() { print(id) }
            await administration.close()
        }
    }
}
