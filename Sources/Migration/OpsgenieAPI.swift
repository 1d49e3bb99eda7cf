import Foundation
import RosterDomain

// `migrate --from opsgenie --api URL` (https://api.opsgenie.com, or api.eu.opsgenie.com): the
// export and the timelines fetched from Opsgenie's REST API v2, read-only, in the shapes a file
// gives (docs/MIGRATING.md).

extension Migration {
    /// Users (every page), schedules with their rotations, each schedule's overrides, and
    /// escalations.
    static func fetchOpsgenie(_ fetcher: SourceFetcher) async throws -> JSONValue {
        let users = try await fetcher.list("/v2/users", key: "data")
        guard case .array(let schedules)? = try await fetcher.object("/v2/schedules?expand=rotation")["data"] else {
            throw SourceFetchError(path: "/v2/schedules", message: "the answer has no list \"data\"")
        }
        var overrides: [String: JSONValue] = [:]
        for schedule in schedules {
            guard case .object(let members) = schedule, case .string(let id)? = members["id"] else {
                throw SourceFetchError(path: "/v2/schedules", message: "a schedule without an id")
            }
            let path = "/v2/schedules/\(SourceFetcher.segment(id))/overrides"
            guard case .array(let list)? = try await fetcher.object(path)["data"] else {
                throw SourceFetchError(path: path, message: "the answer has no list \"data\"")
            }
            overrides[id] = .array(list)
        }
        guard case .array(let escalations)? = try await fetcher.object("/v2/escalations")["data"] else {
            throw SourceFetchError(path: "/v2/escalations", message: "the answer has no list \"data\"")
        }
        return .object([
            "users": .array(users), "schedules": .array(schedules), "overrides": .object(overrides),
            "escalations": .array(escalations),
        ])
    }

    /// Each migrated schedule's timeline over `window`, in whole days from its start.
    static func fetchOpsgenieRendered(_ fetcher: SourceFetcher, ids: [String], window: Range<UnixMillis>)
        async throws -> JSONValue
    {
        let days = Int((window.upperBound - window.lowerBound + 86_399_999) / 86_400_000)
        var timelines: [JSONValue] = []
        for id in ids {
            let path =
                "/v2/schedules/\(SourceFetcher.segment(id))/timeline?date=\(query(TimeText.iso8601(window.lowerBound)))"
                + "&interval=\(days)&intervalUnit=days"
            guard let data = try await fetcher.object(path)["data"] else {
                throw SourceFetchError(path: path, message: "the answer has no \"data\"")
            }
            timelines.append(data)
        }
        return .object([
            "since": .string(TimeText.iso8601(window.lowerBound)),
            "until": .string(TimeText.iso8601(window.upperBound)),
            "schedules": .array(timelines),
        ])
    }
}
