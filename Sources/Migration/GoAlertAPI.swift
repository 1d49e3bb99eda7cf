import Foundation
import RosterDomain

// `migrate --from goalert --api URL`: the export and the rendered shifts fetched from GoAlert's
// GraphQL API (POST /api/graphql), read-only, in the shapes a file gives (docs/MIGRATING.md).

extension Migration {
    /// The GraphQL document every request sends, with the name of one of its operations. A
    /// GoAlert API key runs only the document it was made for: make it from this one, which is
    /// also docs/examples/goalert-api.graphql, word for word.
    public static let goAlertQueries = #"""
        # The queries of roster-client migrate --from goalert --api (docs/MIGRATING.md).
        # Make a GoAlert GraphQL API key (Admin, API Keys) with this document as its query.
        query RosterUsers($after: String!) {
          users(first: 100, after: $after) {
            nodes { id name email }
            pageInfo { endCursor hasNextPage }
          }
        }
        query RosterRotations($after: String!) {
          rotations(input: { first: 100, after: $after }) {
            nodes { id name type timeZone start shiftLength userIDs activeUserIndex }
            pageInfo { endCursor hasNextPage }
          }
        }
        query RosterSchedules($after: String!) {
          schedules(input: { first: 100, after: $after }) {
            nodes {
              id name description timeZone
              targets { target { id type } rules { start end weekdayFilter } }
              temporarySchedules { start end shifts { userID start end } }
            }
            pageInfo { endCursor hasNextPage }
          }
        }
        query RosterOverrides($after: String!, $start: ISOTimestamp!, $end: ISOTimestamp!) {
          userOverrides(input: { first: 100, after: $after, start: $start, end: $end }) {
            nodes { id start end addUserID removeUserID target { id type } }
            pageInfo { endCursor hasNextPage }
          }
        }
        query RosterEscalationPolicies($after: String!) {
          escalationPolicies(input: { first: 100, after: $after }) {
            nodes { id name description repeat steps { delayMinutes targets { id type } } }
            pageInfo { endCursor hasNextPage }
          }
        }
        query RosterServices($after: String!) {
          services(input: { first: 100, after: $after }) {
            nodes { id name description escalationPolicyID }
            pageInfo { endCursor hasNextPage }
          }
        }
        query RosterShifts($id: ID!, $start: ISOTimestamp!, $end: ISOTimestamp!) {
          schedule(id: $id) {
            id
            shifts(start: $start, end: $end) { userID start end user { name } }
          }
        }

        """#

    /// Every list the export holds, page by page; `exportedAt` is GoAlert's own clock (its
    /// `Date` header) when it answered for the rotations, whose positions are state true then.
    static func fetchGoAlert(_ fetcher: SourceFetcher, overrides: Range<UnixMillis>) async throws -> JSONValue {
        let users = try await fetcher.goAlertNodes("RosterUsers", field: "users")
        let (rotations, answeredAt) = try await fetcher.goAlertNodesAndDate("RosterRotations", field: "rotations")
        let window: [String: JSONValue] = [
            "start": .string(TimeText.iso8601(overrides.lowerBound)),
            "end": .string(TimeText.iso8601(overrides.upperBound)),
        ]
        return .object([
            "exportedAt": .string(TimeText.iso8601(answeredAt.flatMap(TimeText.parseHTTPDate) ?? .now)),
            "users": .array(users),
            "rotations": .array(rotations),
            "schedules": .array(try await fetcher.goAlertNodes("RosterSchedules", field: "schedules")),
            "userOverrides": .array(
                try await fetcher.goAlertNodes("RosterOverrides", field: "userOverrides", variables: window)),
            "escalationPolicies": .array(
                try await fetcher.goAlertNodes("RosterEscalationPolicies", field: "escalationPolicies")),
            "services": .array(try await fetcher.goAlertNodes("RosterServices", field: "services")),
        ])
    }

    /// Each migrated schedule's `shifts(start, end)` over `window`.
    static func fetchGoAlertRendered(_ fetcher: SourceFetcher, ids: [String], window: Range<UnixMillis>)
        async throws -> JSONValue
    {
        let since = TimeText.iso8601(window.lowerBound), until = TimeText.iso8601(window.upperBound)
        var schedules: [JSONValue] = []
        for id in ids {
            let variables: [String: JSONValue] = ["id": .string(id), "start": .string(since), "end": .string(until)]
            let (data, _) = try await fetcher.goAlert("RosterShifts", variables: variables)
            guard case .object(let schedule)? = data["schedule"], case .array? = schedule["shifts"] else {
                throw SourceFetchError(
                    SourceFetcher.goAlertRequest("RosterShifts", variables: variables),
                    "GoAlert has no schedule \"\(id)\" (or no shifts for it)")
            }
            schedules.append(.object(schedule))
        }
        return .object(["since": .string(since), "until": .string(until), "schedules": .array(schedules)])
    }
}

extension SourceFetcher {
    static func goAlertRequest(_ operation: String, variables: [String: JSONValue]) -> SourceRequest {
        let body: JSONValue = .object([
            "query": .string(Migration.goAlertQueries), "operationName": .string(operation),
            "variables": .object(variables),
        ])
        return SourceRequest(
            method: .post, path: "/api/graphql", body: try? Migration.encoded(body), label: operation)
    }

    /// One operation's `data`, and the answer's `Date` header. GraphQL says its refusals in a
    /// 200's `errors`: they stop the fetch, in GoAlert's words.
    func goAlert(_ operation: String, variables: [String: JSONValue]) async throws
        -> (data: [String: JSONValue], date: String?)
    {
        let request = Self.goAlertRequest(operation, variables: variables)
        let (answer, date) = try await self.answer(request)
        if case .array(let errors)? = answer["errors"], !errors.isEmpty {
            let messages = errors.prefix(3).map { $0["message"]?.string ?? "an error without a message" }
            let wrongKey = errors.contains { $0["extensions"]?["code"]?.string == "invalid_query" }
            throw SourceFetchError(
                request,
                messages.joined(separator: "; ")
                    + (wrongKey
                        ? " (the API key was made for another document: make one from "
                            + "docs/examples/goalert-api.graphql as it is)" : ""))
        }
        guard case .object(let data)? = answer["data"] else {
            throw SourceFetchError(request, "the answer has no \"data\"")
        }
        return (data, date)
    }

    /// Every node of a connection (`nodes`, `pageInfo { endCursor hasNextPage }`), page by page.
    func goAlertNodes(_ operation: String, field: String, variables: [String: JSONValue] = [:]) async throws
        -> [JSONValue]
    {
        try await goAlertNodesAndDate(operation, field: field, variables: variables).nodes
    }

    /// The nodes, and the `Date` header of the first page's answer.
    func goAlertNodesAndDate(_ operation: String, field: String, variables: [String: JSONValue] = [:])
        async throws -> (nodes: [JSONValue], date: String?)
    {
        var nodes: [JSONValue] = []
        var after = "", firstDate: String?
        for page in 0..<Self.maxPages {
            var asked = variables
            asked["after"] = .string(after)
            let (data, date) = try await goAlert(operation, variables: asked)
            if page == 0 { firstDate = date }
            guard case .object(let connection)? = data[field], case .array(let items)? = connection["nodes"] else {
                throw SourceFetchError(
                    Self.goAlertRequest(operation, variables: asked), "the answer has no \(field) { nodes }")
            }
            nodes += items
            guard case .bool(true)? = connection["pageInfo"]?["hasNextPage"],
                case .string(let cursor)? = connection["pageInfo"]?["endCursor"], !items.isEmpty
            else { return (nodes, firstDate) }
            after = cursor
        }
        throw SourceFetchError(
            Self.goAlertRequest(operation, variables: variables), "more than \(Self.maxPages) pages")
    }
}
