/// Pages served beside the API (RosterWeb's web app adopts it): asked for every GET or HEAD
/// that no API route takes; nil passes it on to the 404.
package protocol HTTPPages: Sendable {
    func respond(to request: HTTPAPI.Request, side: HTTPSide) async -> HTTPAPI.Reply?
}
