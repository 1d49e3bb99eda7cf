import Foundation
import NIOHTTP1
import RosterServerCore
import RosterStore

/// A chat webhook's request for one event: the platform's body, where it goes and how.
enum ChatDelivery {
    struct Request: Sendable {
        var url: String
        var method: HTTPMethod
        var body: Data
    }

    enum Preparation: Sendable {
        case send(Request)
        /// Not sent, and why (recorded as the attempt's outcome).
        case skip(String)
    }

    /// The request for `head`, or why it is skipped: an announcement that a later one of the same
    /// schedule follows within the coalescing window (several changes make one post).
    static func prepare(_ head: DueDelivery, store: any NotificationStore, words: Words = .english) async -> Preparation
    {
        if head.event.type == .announcement,
            (try? await store.laterAnnouncement(after: head, within: NoticeDerivation.announceCoalescing)) == true
        {
            return .skip("skipped: a later announcement of the same schedule follows within a few seconds")
        }
        guard let message = ChatPosts.message(for: head.event, words: words) else {
            return .skip("skipped: the event's payload could not be read")
        }
        let body = message.body(head.webhook.format)
        guard head.webhook.format == .matrix else {
            return .send(Request(url: head.webhook.url, method: .POST, body: body))
        }
        // Matrix: PUT …/rooms/ROOM/send/m.room.message/TXN; the delivery id as the transaction id
        // makes a retry the same event to the homeserver, not a second post.
        let base = head.webhook.url.hasSuffix("/") ? String(head.webhook.url.dropLast()) : head.webhook.url
        return .send(
            Request(url: "\(base)/send/m.room.message/\(head.event.id).\(head.webhook.id)", method: .PUT, body: body))
    }
}
