import Foundation

/// A service (issue #56): what a paging tool routes an alert by. It names the escalation policy
/// that says whom to page; Roster answers who that is, it does not page.
public struct PagingService: Sendable, Hashable, Codable, Identifiable {
    public struct Link: Sendable, Hashable, Codable {
        public var title: String
        public var url: String

        public init(title: String, url: String) { (self.title, self.url) = (title, url) }
    }

    public var id: String
    public var name: String
    public var team: String
    public var description: String
    /// The id of the escalation policy it pages through.
    public var policyID: String
    /// Runbooks, dashboards: http(s) addresses with a title.
    public var links: [Link]

    public init(
        id: String, name: String, policyID: String, team: String = "", description: String = "", links: [Link] = []
    ) {
        (self.id, self.name, self.team, self.description) = (id, name, team, description)
        (self.policyID, self.links) = (policyID, links)
    }

    public static let maxLinks = 10
}
