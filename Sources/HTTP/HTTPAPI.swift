import Foundation
import NIOCore
import NIOHTTP1
import NIOConcurrencyHelpers
import RosterDomain
import RosterProtocol
import RosterServerCore

/// What the HTTP listener answers (docs/HTTP.md): health, metrics, and "who is on call" as JSON.
/// The JSON answers are the protocol's own: each is the answer `Queries.answer` gives the same
/// request over the protocol, shaped as JSON, so the two cannot disagree.
package struct HTTPAPI: Sendable {
    /// A request as the routes see it.
    package struct Request: Sendable {
        package var method: String
        package var path: String
        package var query: [String: String]
        package var authorization: String?
        /// The Cookie header, the Origin header and the Host header (a change's CSRF checks).
        package var cookie: String?
        package var origin: String?
        package var host: String?
        package var contentType: String?
        package var acceptEncoding: String?
        /// The languages the browser asks for, as sent (the web app reads it: `Language`).
        package var acceptLanguage: String?
        /// Slack's slash-command signature headers (X-Slack-Request-Timestamp, X-Slack-Signature).
        package var slackTimestamp: String?
        package var slackSignature: String?
        /// If-Match and If-None-Match (SCIM's ETags).
        package var ifMatch: String?
        package var ifNoneMatch: String?
        package var body: [UInt8] = []
        /// Whether a proxy relayed the request (Forwarded, X-Forwarded-*, X-Real-IP or Via).
        package var forwarded = false
        /// The peer's address and port, for the audit log.
        package var peer = ""
        /// The peer's address alone (what event streams are counted by).
        package var peerAddress = ""
        /// The connection's event loop (a change made here is published from it).
        package var loop: (any EventLoop)?

        package init(method: String, path: String, query: [String: String] = [:], authorization: String? = nil) {
            (self.method, self.path, self.query, self.authorization) = (method, path, query, authorization)
        }

        /// A cookie's value, if the request sent it.
        package func cookie(_ name: String) -> String? {
            for pair in (cookie ?? "").split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }

        /// The fields of an `application/x-www-form-urlencoded` body (the last of a repeated
        /// name wins); empty for any other body.
        package var form: [String: String] {
            guard contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else { return [:] }
            return Self.formFields(String(decoding: body, as: UTF8.self))
        }

        /// The one reader of `application/x-www-form-urlencoded` text, for query strings and form
        /// bodies alike: `+` is a space (what HTML forms and Python's requests send), `%XX` a
        /// byte; the last of a repeated name wins.
        package static func formFields(_ encoded: String) -> [String: String] {
            var components = URLComponents()
            components.percentEncodedQuery = encoded.replacingOccurrences(of: "+", with: "%20")
            var fields: [String: String] = [:]
            for item in components.queryItems ?? [] { fields[item.name] = item.value ?? "" }
            return fields
        }
    }

    package struct Reply: Sendable {
        package var status: Int
        package var contentType: String
        package var body: [UInt8]
        package var headers: [(String, String)] = []
        /// A Server-Sent Events stream of this tenant's changes follows the head instead of a
        /// body (`GET /v1/events`; the connection's handler runs it), with its admission.
        var eventStream: (TenantRuntime, StreamAdmission.Ticket)?

        package init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
            (self.status, self.contentType, self.body, self.headers) = (status, contentType, body, headers)
        }
    }

    let side: HTTPSide

    func respond(to request: Request) async -> Reply {
        if side.developmentMode && !request.hostIsLoopback {
            return Self.problem(
                421,
                """
                in development mode (a loopback listener) only loopback host names are answered: \
                localhost, 127.0.0.1 or [::1]; behind a proxy or tunnel, start with --no-development-mode
                """)
        }
        if let address = Self.scimAddress(request.path) { return await scim(request, at: address) }
        switch Self.routes.route(request.method, request.path) {
        case .found(let handle, let parameters):
            return await handle(self, request, parameters)
        case .wrongMethod(let allowed):
            return Self.problem(
                405, "\(request.path) takes \(allowed.joined(separator: ", "))",
                headers: [("Allow", allowed.joined(separator: ", "))])
        case .notFound:
            // The web app's pages, at every path the API does not have.
            if let pages = side.pages, let reply = await pages.respond(to: request, side: side) { return reply }
            return Self.problem(404, "no such resource: \(request.path) (see docs/HTTP.md)")
        }
    }

    typealias Route = HTTPRoute<@Sendable (HTTPAPI, Request, [String]) async -> Reply>

    /// Every path of the API (docs/HTTP.md), and the one place it is routed: the OpenAPI
    /// document lists exactly these (`HTTPRouteTests`). GET routes answer HEAD too.
    static let routes: [Route] = [
        Route("GET", [.literal("livez")]) { _, _, _ in text("ok\n") },
        Route("GET", [.literal("readyz")]) { api, _, _ in
            switch await api.side.readiness() {
            case .ready: return text("ready\n")
            case .notReady(let why): return problem(503, why)
            }
        },
        Route("GET", [.literal("metrics")]) { api, request, _ in await api.metrics(request) },
        Route("GET", [.literal("v1"), .literal("openapi.json")]) { _, _, _ in
            Reply(status: 200, contentType: "application/json", body: Array(OpenAPIDocument.json.utf8))
        },
        Route("GET", [.literal("v1"), .literal("events")]) { api, request, _ in api.events(request) },
        Route("GET", [.literal("v1"), .literal("oncall")]) { api, request, _ in
            // Now is an index lookup; a window is resolved.
            let lane: TenantWorkPool.Lane = request.query["from"] == nil && request.query["to"] == nil ? .short : .long
            return await api.authorized(request, lane: lane, sliced: { tenant in api.oncall(request, tenant: tenant) })
        },
        Route("GET", [.literal("v1"), .literal("people"), .parameter("person"), .literal("next")]) {
            api, request, parameters in
            await api.authorized(request) { tenant in api.next(person: parameters[0], request, tenant: tenant) }
        },
        Route("GET", [.literal("v1"), .literal("services"), .parameter("service"), .literal("oncall")]) {
            api, request, parameters in
            await api.authorized(request) { tenant in api.escalation(service: parameters[0], request, tenant: tenant) }
        },
        Route("GET", [.literal("v1"), .literal("escalation-policies"), .parameter("policy"), .literal("oncall")]) {
            api, request, parameters in
            await api.authorized(request) { tenant in api.escalation(policy: parameters[0], request, tenant: tenant) }
        },
        Route("GET", [.literal("v1"), .literal("requests")]) { api, request, _ in
            await api.authorized(request, lane: .short) { tenant in api.coverRequests(request, tenant: tenant) }
        },
        Route("POST", [.literal("v1"), .literal("requests"), .parameter("id"), .parameter("step")]) {
            api, request, parameters in
            await api.coverRequestStep(request, id: parameters[0], step: parameters[1])
        },
        Route("GET", [.literal("v1"), .literal("reports"), .literal("hours")]) { api, request, _ in
            await api.report(request, kind: .hours)
        },
        Route("GET", [.literal("v1"), .literal("reports"), .literal("quality")]) { api, request, _ in
            await api.report(request, kind: .quality)
        },
        Route("GET", [.literal("v1"), .literal("calendar"), .parameter("token", suffix: ".ics")]) {
            api, request, parameters in
            await api.calendar(tokenText: parameters[0], request: request)
        },
        Route("POST", [.literal("v1"), .literal("chat"), .literal("slack"), .literal("command")]) { api, request, _ in
            await api.chatCommand(request, platform: "slack")
        },
        Route("POST", [.literal("v1"), .literal("chat"), .literal("mattermost"), .literal("command")]) {
            api, request, _ in
            await api.chatCommand(request, platform: "mattermost")
        },
    ]

    /// `GET /metrics`: series that name tenants and schedules go to whom may see them: on a
    /// loopback listener everyone (development), elsewhere an admin token's own tenant only.
    private func metrics(_ request: Request) async -> Reply {
        guard let metrics = side.metrics else { return Self.problem(404, "metrics are off") }
        let scope: HTTPSide.ReadingScope
        if side.isDevelopment(request) {
            scope = .all
        } else if let tenant = adminTenant(request) {
            scope = .tenant(tenant)
        } else {
            scope = .serverOnly
        }
        let side = self.side
        // The quality gauges: measured again in the background once an hour old (never waited for).
        if case .serverOnly = scope {} else { side.context?.requestQualityGauges() }
        var readings: [MetricsRegistry.Reading] = []
        if let work = side.context?.work {
            guard let read = await work.run("", lane: .short, { side.readings(scope) }) else {
                return Self.problem(AdminOperations.busy)
            }
            readings = read
        }
        return Reply(
            status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics.emit(readings: readings)
        )
    }

    /// `GET /v1/events`: admitted, the reply's head is followed by the tenant's event stream.
    private func events(_ request: Request) -> Reply {
        switch side.reader(request) {
        case .tenant(let tenant, let principal):
            var reply = Reply(status: 200, contentType: "text/event-stream; charset=utf-8", body: [])
            guard request.method == "GET" else { return reply }
            switch side.admitStream(principal: principal, address: request.peerAddress) {
            case .success(let ticket): reply.eventStream = (tenant, ticket)
            case .failure(let refusal):
                side.metrics?.counters.httpStreamRefused()
                return Self.problem(429, refusal.detail, headers: [("Retry-After", "5")])
            }
            return reply
        case .starting: return Self.problem(503, "starting: the tenants are not loaded yet")
        case .refused:
            return Self.problem(
                401, "authentication failed", headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\"")])
        case .signInNeeded:
            return Self.problem(
                401, "send a token: Authorization: Bearer rst_...", headers: [("WWW-Authenticate", "Bearer")])
        }
    }

    // MARK: Chat

    /// `POST /v1/chat/slack/command`, `/v1/chat/mattermost/command` (docs/CHAT.md): the tenant
    /// is `?tenant=ID` (default: the default tenant); the request must carry the platform's proof
    /// (Slack's signature, Mattermost's token), else 401 and nothing else.
    private func chatCommand(_ request: Request, platform: String) async -> Reply {
        guard let context = side.context else { return Self.problem(503, "starting: the tenants are not loaded yet") }
        guard let notifications = context.notifications,
            let tenant = context.tenant(request.query["tenant"] ?? context.defaultTenant)
        else {
            return Self.problem(401, "the request is not from a chat platform set up for this tenant")
        }
        let answer = await notifications.chatCommand(
            ChatCommandRequest(
                platform: platform, body: request.body, fields: request.form, slackTimestamp: request.slackTimestamp,
                slackSignature: request.slackSignature), tenant: tenant)
        guard answer.status == 200 else { return Self.problem(answer.status, answer.problem) }
        return Reply(status: 200, contentType: "application/json", body: answer.json)
    }

    // MARK: Who is on call

    /// Authenticates the bearer token, then works `body` out on the tenant work pool (it
    /// resolves schedules): never on the event loop or the cooperative pool.
    private func authorized(
        _ request: Request, lane: TenantWorkPool.Lane = .long,
        _ body: @escaping @Sendable (TenantRuntime) -> Reply
    ) async -> Reply {
        await authorized(request, lane: lane, sliced: { tenant in { body(tenant) } })
    }

    /// `authorized` for work done in slices (`TenantWorkPool.runSliced`): `body` makes the step,
    /// which gives nil until the reply is ready.
    private func authorized(
        _ request: Request, lane: TenantWorkPool.Lane = .long,
        sliced body: @escaping @Sendable (TenantRuntime) -> @Sendable () -> Reply?
    ) async -> Reply {
        guard let context = side.context else { return Self.problem(503, "starting: the tenants are not loaded yet") }
        guard let header = request.authorization, header.lowercased().hasPrefix("bearer ") else {
            return Self.problem(
                401, "send a token: Authorization: Bearer rst_...", headers: [("WWW-Authenticate", "Bearer")])
        }
        let now = context.clock.now()
        guard let credential = context.tokens.authenticate(String(header.dropFirst(7)), now: now),
            let tenant = context.tenant(credential.tenantID)
        else {
            side.metrics?.counters.authenticationFailed()
            context.auditAuthenticationFailure(
                token: String(header.dropFirst(7)), address: request.peer, door: "HTTP Bearer token", at: now)
            return Self.problem(
                401, "authentication failed", headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\"")])
        }
        let step = body(tenant)
        do {
            return try await context.work.runSliced(tenant.id, lane: lane) { step() }
        } catch {
            return Self.problem(AdminOperations.busy)
        }
    }

    /// The tenant of a usable admin token in the request's Authorization header, if any.
    private func adminTenant(_ request: Request) -> String? {
        guard let context = side.context, let header = request.authorization, header.lowercased().hasPrefix("bearer "),
            let credential = context.tokens.authenticate(String(header.dropFirst(7)), now: context.clock.now()),
            credential.role == .admin
        else { return nil }
        return credential.tenantID
    }

    static func instant(_ text: String?, name: String) throws(Reply.Refusal) -> UnixMillis? {
        guard let text else { return nil }
        guard let instant = TimeText.parseISO8601(text) else {
            throw Reply.Refusal(
                problem(400, "\(name) is not an ISO 8601 instant: \"\(text)\" (e.g. 2026-12-01T09:00:00Z)"))
        }
        return instant
    }

    // MARK: Replies

    static func text(_ text: String, status: Int = 200) -> Reply {
        Reply(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    static func json<T: Encodable>(_ value: T) -> Reply {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Reply(
            status: 200, contentType: "application/json", body: Array((try? encoder.encode(value)) ?? Data("{}".utf8)))
    }

    /// An RFC 9457 problem.
    static func problem(_ status: Int, _ detail: String, headers: [(String, String)] = []) -> Reply {
        struct Problem: Encodable { var type = "about:blank"; var title: String; var status: Int; var detail: String }
        var reply = json(Problem(title: reason(status), status: status, detail: detail))
        reply.status = status
        reply.contentType = "application/problem+json"
        reply.headers = headers
        return reply
    }

    static func problem(_ error: WireError) -> Reply {
        let status: Int
        switch error.body.code {
        case .notFound: status = 404
        case .failedPrecondition: status = 409
        case .invalidArgument, .protocolViolation: status = 400
        case .permissionDenied: status = 403
        case .unauthenticated: status = 401
        case .resourceExhausted: status = 429
        case .unavailable: status = 503
        default: status = 500
        }
        return problem(status, error.body.message)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 303: "See Other"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 421: "Misdirected Request"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: "Internal Server Error"
        }
    }
}

extension HTTPAPI.Reply {
    /// A request refused before it was answered: the problem to send.
    struct Refusal: Error {
        var reply: HTTPAPI.Reply
        init(_ reply: HTTPAPI.Reply) { self.reply = reply }
    }
}

extension HTTPAPI.Request {
    /// The request a head asks for: its path and query (form-encoded: `+` is a space).
    init(_ head: HTTPRequestHead) {
        let components = URLComponents(string: head.uri)
        let query = Self.formFields(components?.percentEncodedQuery ?? "")
        self.init(
            method: head.method.rawValue, path: components?.path ?? head.uri, query: query,
            authorization: head.headers.first(name: "authorization"))
        cookie = head.headers["cookie"].joined(separator: "; ")
        origin = head.headers.first(name: "origin")
        host = head.headers.first(name: "host")
        forwarded = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "via"]
            .contains { head.headers.contains(name: $0) }
        contentType = head.headers.first(name: "content-type")
        acceptEncoding = head.headers["accept-encoding"].joined(separator: ", ")
        acceptLanguage = head.headers["accept-language"].joined(separator: ", ")
        slackTimestamp = head.headers.first(name: "x-slack-request-timestamp")
        slackSignature = head.headers.first(name: "x-slack-signature")
        ifMatch = head.headers.first(name: "if-match")
        ifNoneMatch = head.headers.first(name: "if-none-match")
    }
}
