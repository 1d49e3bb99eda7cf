import Foundation
import RosterDomain

// `migrate --from pagerduty --api URL`: the export and the rendered list fetched from
// PagerDuty's REST API v2, read-only, in the same shapes a file gives (docs/MIGRATING.md).

extension Migration {
    /// PagerDuty's users, teams, every schedule (with its overrides over `overrides`),
    /// escalation policies and services.
    static func fetchPagerDuty(_ fetcher: SourceFetcher, overrides: Range<UnixMillis>) async throws -> JSONValue {
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
        return .object([
            "users": .array(try await fetcher.list("/users", key: "users")),
            "teams": .array(try await fetcher.list("/teams", key: "teams")),
            "schedules": .array(schedules),
            "escalation_policies": .array(try await fetcher.list("/escalation_policies", key: "escalation_policies")),
            "services": .array(try await fetcher.list("/services", key: "services")),
        ])
    }

    /// Each migrated schedule as `GET /schedules/{id}?since=…&until=…` gives it (its
    /// `final_schedule`).
    static func fetchPagerDutyRendered(_ fetcher: SourceFetcher, ids: [String], window: Range<UnixMillis>)
        async throws -> JSONValue
    {
        let since = TimeText.iso8601(window.lowerBound), until = TimeText.iso8601(window.upperBound)
        var schedules: [JSONValue] = []
        for id in ids {
            let path =
                "/schedules/\(SourceFetcher.segment(id))?since=\(Self.query(since))&until=\(Self.query(until))"
            guard let schedule = try await fetcher.object(path)["schedule"] else {
                throw SourceFetchError(path: path, message: "the answer has no \"schedule\"")
            }
            schedules.append(schedule)
        }
        return .object(["since": .string(since), "until": .string(until), "schedules": .array(schedules)])
    }

    static func query(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
