import Foundation
import RosterDomain

// `migrate --from pagerduty --api URL`: the export and the rendered list fetched from
// PagerDuty's REST API v2, read-only, in the same shapes a file gives (docs/MIGRATING.md).

extension MigrationSource {
    /// The headers every request to the source's API carries: its token, as that API wants it.
    public func apiHeaders(token: String) -> [(String, String)] {
        switch self {
        case .pagerDuty:
            [("Authorization", "Token token=\(token)"), ("Accept", "application/vnd.pagerduty+json;version=2")]
        case .opsgenie: [("Authorization", "GenieKey \(token)")]
        case .goAlert, .grafanaOnCall: [("Authorization", "Bearer \(token)")]
        }
    }
}

extension Migration {
    /// The source's export fetched through `get`: for PagerDuty, its users, teams, every
    /// schedule (with the overrides over `overrides`), escalation policies and services.
    public static func fetchExport(
        from source: MigrationSource, get: @escaping SourceGet, overrides: Range<UnixMillis>,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws -> Data {
        let fetcher = SourceFetcher(get: get, sleep: sleep)
        switch source {
        case .pagerDuty: break
        case .opsgenie: return try JSONEncoder().encode(try await fetchOpsgenie(fetcher))
        case .goAlert, .grafanaOnCall:
            throw SourceFetchError(path: "", message: "fetching from \(source.title)'s API is not built yet")
        }
        let window =
            "since=\(Self.query(TimeText.iso8601(overrides.lowerBound)))&until=\(Self.query(TimeText.iso8601(overrides.upperBound)))"
        var schedules: [JSONValue] = []
        for reference in try await fetcher.list("/schedules", key: "schedules") {
            guard case .object(let members) = reference, case .string(let id)? = members["id"] else {
                throw SourceFetchError(path: "/schedules", message: "a schedule without an id")
            }
            let path = "/schedules/" + SourceFetcher.segment(id)
            guard case .object(var schedule)? = try await fetcher.object(path)["schedule"] else {
                throw SourceFetchError(path: path, message: "the answer has no \"schedule\"")
            }
            let overrides = try await fetcher.list(path + "/overrides?" + window, key: "overrides")
            schedule["overrides"] = .array(overrides)
            schedules.append(.object(schedule))
        }
        let export: JSONValue = .object([
            "users": .array(try await fetcher.list("/users", key: "users")),
            "teams": .array(try await fetcher.list("/teams", key: "teams")),
            "schedules": .array(schedules),
            "escalation_policies": .array(try await fetcher.list("/escalation_policies", key: "escalation_policies")),
            "services": .array(try await fetcher.list("/services", key: "services")),
        ])
        return try JSONEncoder().encode(export)
    }

    /// The source's own rendered list over `window` for the schedules this migration read.
    public func fetchRendered(
        get: @escaping SourceGet, window: Range<UnixMillis>,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws -> Data {
        let fetcher = SourceFetcher(get: get, sleep: sleep)
        let since = TimeText.iso8601(window.lowerBound), until = TimeText.iso8601(window.upperBound)
        var schedules: [JSONValue] = []
        switch source {
        case .pagerDuty: break
        case .opsgenie:
            schedules = try await Self.fetchOpsgenieTimelines(fetcher, ids: scheduleIDs.keys.sorted(), window: window)
            return try JSONEncoder().encode(
                JSONValue.object(["since": .string(since), "until": .string(until), "schedules": .array(schedules)]))
        case .goAlert, .grafanaOnCall:
            throw SourceFetchError(path: "", message: "fetching from \(source.title)'s API is not built yet")
        }
        for id in scheduleIDs.keys.sorted() {
            let path =
                "/schedules/\(SourceFetcher.segment(id))?since=\(Self.query(since))&until=\(Self.query(until))"
            guard let schedule = try await fetcher.object(path)["schedule"] else {
                throw SourceFetchError(path: path, message: "the answer has no \"schedule\"")
            }
            schedules.append(schedule)
        }
        return try JSONEncoder().encode(
            JSONValue.object(["since": .string(since), "until": .string(until), "schedules": .array(schedules)]))
    }

    static func query(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
