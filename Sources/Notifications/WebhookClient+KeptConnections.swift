import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterTLS

/// Requests on connections kept open per origin (`KeptConnections`): HTTP/1.1 keep-alive, one
/// request at a time on each connection.
extension WebhookClient {
    /// The most of an answer's body read from a kept connection (and dropped): a push service's
    /// answers carry none worth reading; a longer one closes the connection.
    static let keptBodyLimit = 64 * 1024

    /// A place on a connection kept open to a URL's origin, taken before the request is made:
    /// a push message is encrypted only once it can be sent, so a handoff's thousands wait in
    /// the origin's queue rather than all encrypting at once on the cooperative pool. Used by
    /// `post(url:on:)`, or given back with `giveBack`.
    ///
    /// Carries the URL it was made for, read: a push message goes to that URL, which is then
    /// not read again (parsing it was a few percent of a handoff's CPU).
    struct Reservation: Sendable {
        let url: String
        let target: Target
        let lease: KeptConnections.Lease
        var origin: String { target.origin }
    }

    func reserve(url text: String) async throws(Failure) -> Reservation {
        let target = try Target(text, addresses: addresses)
        return Reservation(url: text, target: target, lease: try await lease(target.origin))
    }

    func giveBack(_ reservation: Reservation) { kept.giveBack(reservation.lease, origin: reservation.origin) }

    private func lease(_ origin: String) async throws(Failure) -> KeptConnections.Lease {
        do {
            return try await kept.lease(origin, on: group.next())
        } catch let failure as Failure {
            throw failure
        } catch is CancellationError {
            throw .connection("cancelled")
        } catch {
            throw .connection("\(error)")
        }
    }

    /// Posts on the reservation's connection (or one opened under it); `text` must be at the
    /// reservation's origin.
    func post(
        url text: String, on reservation: Reservation, method: HTTPMethod = .POST, headers: [(String, String)],
        body: Data, timeout: Duration
    ) async throws(Failure) -> Response {
        let target: Target
        do throws(Failure) {
            target = text == reservation.url ? reservation.target : try Target(text, addresses: addresses)
            guard target.origin == reservation.origin else { throw .badURL("is not at \(reservation.origin)") }
        } catch {
            giveBack(reservation)
            throw error
        }
        let head = target.head(method: method, headers: headers, length: body.count, close: false)
        // A kept connection the far end closed while it was idle fails before any answer (closed,
        // or reset when the request reached a socket already closed): the request goes once
        // more, on another (a push message carries its id, which the service worker
        // deduplicates, so a second copy is harmless). A timeout is not tried again.
        var lease = reservation.lease
        for round in 0..<2 {
            if round > 0 { lease = try await self.lease(target.origin) }
            let connection: KeptConnections.Connection
            var onKept = false
            switch lease {
            case .kept(let found):
                (connection, onKept) = (found, true)
            case .open:
                do {
                    connection = try await open(target, timeout: timeout)
                } catch {
                    kept.openFailed(target.origin, error: error)
                    throw error
                }
            }
            do {
                let answer = try await exchange(on: connection, head: head, body: body, timeout: timeout)
                kept.release(connection, reusable: answer.keepOpen)
                return answer.response
            } catch {
                connection.channel.close(promise: nil)
                switch error {
                case .closedEarly, .connection: if onKept { continue }
                default: break
                }
                throw error
            }
        }
        throw .closedEarly
    }

    /// A new connection to the target's origin with the exchange handler in its pipeline,
    /// counted by `kept` until it closes.
    private func open(_ target: Target, timeout: Duration) async throws(Failure) -> KeptConnections.Connection {
        let destination = try await destination(target)
        let tls = try await tlsContext(target)
        let (bare, idle) = (target.bare, kept.limits.idle)
        let bootstrap = Self.bootstrap(on: group.next(), tls: tls, serverHostname: bare, timeout: timeout) {
            try $0.addHandler(IdleStateHandler(allTimeout: idle))
            try $0.addHandler(Exchange())
        }
        let channel: any Channel
        do {
            // The TLS handshake, if any, runs with the first request, under its deadline.
            channel = try await bootstrap.connect(to: destination).get()
        } catch {
            throw .connection("cannot connect to \(target.host):\(target.port): \(Self.reason(error))")
        }
        return kept.opened(channel, origin: target.origin)
    }

    /// Sends one request on `connection` and waits for the whole answer, at most `timeout`.
    private func exchange(
        on connection: KeptConnections.Connection, head: HTTPRequestHead, body: Data, timeout: Duration
    ) async throws(Failure) -> Exchange.Answer {
        let channel = connection.channel
        let promise = channel.eventLoop.makePromise(of: Exchange.Answer.self)
        let request = Exchange.Request(
            head: head, body: ByteBuffer(bytes: body), answer: promise, deadline: TimeAmount(timeout))
        channel.writeAndFlush(request).whenFailure { _ in promise.fail(Failure.closedEarly) }  // nothing was answered
        do {
            return try await withTaskCancellationHandler {
                try await promise.futureResult.get()
            } onCancel: {
                promise.fail(CancellationError())
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .connection("\(error)")
        }
    }

    /// One request at a time on a kept connection: writes it, completes its promise with the
    /// answer once the answer has ended (so the connection is ready for the next), and fails it
    /// when the connection closes or errs first, or when its deadline passes (then the connection
    /// is closed). The deadline is set here, on the connection's loop: set and cancelled from the
    /// cooperative pool, each request woke the loop twice more and contended for its lock.
    /// Closes an idle connection after the idle limit.
    final class Exchange: ChannelDuplexHandler {
        struct Request: Sendable {
            var head: HTTPRequestHead
            var body: ByteBuffer
            var answer: EventLoopPromise<Answer>
            /// How long the answer may take, from the write.
            var deadline: TimeAmount
        }

        struct Answer: Sendable {
            var response: Response
            /// The answer allows the connection to be used again.
            var keepOpen: Bool
        }

        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundIn = Request
        typealias OutboundOut = HTTPClientRequestPart

        private var pending: EventLoopPromise<Answer>?
        private var timer: Scheduled<Void>?
        private var answer: Answer?
        private var bodyBytes = 0
        /// Answers received: a connection is idle only once it has served one (the first request
        /// may come long after the connection, when the cooperative pool is busy).
        private var answered = 0

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            let request = unwrapOutboundIn(data)
            guard pending == nil else {
                request.answer.fail(Failure.connection("a kept connection was given two requests at once"))
                promise?.fail(ChannelError.inappropriateOperationForState)
                return
            }
            (pending, answer, bodyBytes) = (request.answer, nil, 0)
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: request.deadline) {
                let (handler, context) = loopBound.value
                handler.fail(Failure.timedOut)
                context.close(promise: nil)
            }
            context.write(wrapOutboundOut(.head(request.head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(request.body))), promise: nil)
            context.write(wrapOutboundOut(.end(nil)), promise: promise)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                answer = Answer(
                    response: Response(
                        status: Int(head.status.code), retryAfter: head.headers.first(name: "Retry-After")),
                    keepOpen: head.isKeepAlive)
            case .body(let part):
                bodyBytes += part.readableBytes
                if bodyBytes > WebhookClient.keptBodyLimit {
                    fail(Failure.connection("the answer is larger than \(WebhookClient.keptBodyLimit / 1024) KiB"))
                    context.close(promise: nil)
                }
            case .end:
                guard let pending, let answer else { return }
                (self.pending, self.answer) = (nil, nil)
                timer?.cancel()
                timer = nil
                answered += 1
                pending.succeed(answer)
            }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is IdleStateHandler.IdleStateEvent, pending == nil, answered > 0 {
                context.close(promise: nil)
            } else {
                context.fireUserInboundEventTriggered(event)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            fail(Failure.closedEarly)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            fail(Failure.connection("\(error)"))
            context.close(promise: nil)
        }

        private func fail(_ failure: Failure) {
            pending?.fail(failure)
            timer?.cancel()
            (pending, answer, timer) = (nil, nil, nil)
        }
    }
}
