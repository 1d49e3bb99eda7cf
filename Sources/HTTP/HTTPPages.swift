import RosterServerCore

/// Pages served beside the API (RosterWeb's web app adopts it): asked for every request that no
/// API route takes (a GET, or a form's POST); nil passes it on to the 404.
package protocol HTTPPages: Sendable {
    func respond(to request: HTTPAPI.Request, side: HTTPSide) async -> HTTPAPI.Reply?

    /// The tenant of the request's signed-in session, if it has a current one, and the token
    /// the session was made from: the event stream reads it too (a browser's EventSource sends
    /// the cookie, not a bearer token), and counts it against that token.
    func sessionTenant(_ request: HTTPAPI.Request, side: HTTPSide) -> (TenantRuntime, tokenID: String)?
}
