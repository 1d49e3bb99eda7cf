import Foundation
import RosterDomain

// `migrate --from grafana-oncall --api URL` (the OnCall API URL of its settings page): the export
// and the final shifts fetched from Grafana OnCall's public API v1, read-only, in the shapes a
// file gives (docs/MIGRATING.md).

extension Migration {
    /// Users, schedules, on-call shifts (overrides among them), escalation chains and their
    /// steps: every page of each list.
    static func fetchGrafanaOnCall(_ fetcher: SourceFetcher) async throws -> JSONValue {
        .object([
            "users": .array(try await fetcher.grafanaPages("/api/v1/users/")),
            "schedules": .array(try await fetcher.grafanaPages("/api/v1/schedules/")),
            "on_call_shifts": .array(try await fetcher.grafanaPages("/api/v1/on_call_shifts/")),
            "escalation_chains": .array(try await fetcher.grafanaPages("/api/v1/escalation_chains/")),
            "escalation_policies": .array(try await fetcher.grafanaPages("/api/v1/escalation_policies/")),
        ])
    }

    /// Each migrated schedule's final shifts over the whole UTC days that hold `window`. Grafana
    /// OnCall reads `end_date` as the last second of the day before it, so the list covers up
    /// to that second.
    static func fetchGrafanaOnCallRendered(_ fetcher: SourceFetcher, ids: [String], window: Range<UnixMillis>)
        async throws -> JSONValue
    {
        let day: UnixMillis = 86_400_000
        let first = window.lowerBound - (window.lowerBound % day + day) % day
        let end = first + max(1, (window.upperBound - first + day - 1) / day) * day
        let dates = "start_date=\(TimeText.iso8601(first).prefix(10))&end_date=\(TimeText.iso8601(end).prefix(10))"
        var schedules: [JSONValue] = []
        for id in ids {
            let path = "/api/v1/schedules/\(SourceFetcher.segment(id))/final_shifts?\(dates)"
            let shifts = try await fetcher.grafanaPages(path)
            schedules.append(.object(["id": .string(id), "final_shifts": .array(shifts)]))
        }
        return .object([
            "since": .string(TimeText.iso8601(first)), "until": .string(TimeText.iso8601(end - 1_000)),
            "schedules": .array(schedules),
        ])
    }
}

extension SourceFetcher {
    /// Every element of a Grafana OnCall list (`results`), following `next` while it is given:
    /// only its `page` number is taken, and asked of the base URL given, never of a link's host.
    func grafanaPages(_ path: String) async throws -> [JSONValue] {
        var all: [JSONValue] = []
        var page = 1
        for _ in 0..<Self.maxPages {
            let asked = page == 1 ? path : path + (path.contains("?") ? "&" : "?") + "page=\(page)"
            let answer = try await object(asked)
            guard case .array(let items)? = answer["results"] else {
                throw SourceFetchError(path: asked, message: "the answer has no list \"results\"")
            }
            all += items
            guard case .string(let next)? = answer["next"] else { return all }
            guard let number = Self.pageNumber(next), number > page, !items.isEmpty else {
                throw SourceFetchError(path: asked, message: "its next page is not a later page number: \(next)")
            }
            page = number
        }
        throw SourceFetchError(path: path, message: "more than \(Self.maxPages) pages")
    }

    /// The `page` query parameter of a link (1 to 1,000,000), or nil.
    static func pageNumber(_ link: String) -> Int? {
        guard let items = URLComponents(string: link)?.queryItems,
            let value = items.last(where: { $0.name == "page" })?.value, value.count <= 7,
            value.allSatisfy(\.isASCII), let number = Int(value), (1...1_000_000).contains(number)
        else { return nil }
        return number
    }
}
