#if canImport(Glibc)
    import Glibc
#endif
import NIOCore
import NIOHTTP1
import RosterDomain
import RosterServerCore

/// `GET /v1/events`: a Server-Sent Events stream of one tenant's changes, for pages that update
/// themselves (docs/HTTP.md, "Event stream"). The connection subscribes to the tenant like a
/// protocol subscriber (every schedule's on-duty set, and the roster), through the same
/// fan-out: it is one more `PushSink` on its event loop. Events say what changed, not the new
/// state; a page fetches what it shows again.
///
/// Bounded like every HTTP connection (`--http-max-connections` counts streams too); a comment
/// every `heartbeat` keeps proxies from closing an idle stream. A reader that stops reading
/// follows the protocol's slow-consumer rule (`SlowConsumerPolicy`): nothing is queued for it
/// but the newest on-duty event per schedule, written when it drains, and a `resync` event then
/// if a roster change was missed; it is closed after `--http-idle-timeout-ms` of not draining.
/// Streams close when the server stops.
final class EventStream {
    let tenant: TenantRuntime
    let subscription: Subscription
    let heartbeat: RepeatedTask
    /// What is held back and owed while the reader does not read (one subscription, id 1).
    var slowConsumer = SlowConsumerPolicy()
    /// The newest on-duty event per schedule held back, written when the reader drains.
    var heldOnDuty: [String: ByteBuffer] = [:]
    /// Pushes were written and not yet flushed.
    var flushDue = false
    /// The last on-duty event written and its schedule: a schedule's handoffs, pushed again
    /// and again, are encoded once per stream (and the bytes written are shared, not copied).
    var onDutyEvent: (schedule: String, bytes: ByteBuffer)?
    let rosterEvent: ByteBuffer
    var stallDeadline: Scheduled<Void>?

    init(tenant: TenantRuntime, subscription: Subscription, heartbeat: RepeatedTask, allocator: ByteBufferAllocator) {
        self.tenant = tenant
        self.subscription = subscription
        self.heartbeat = heartbeat
        rosterEvent = allocator.buffer(string: Self.event("roster", "{}"))
    }

    static let heartbeat: TimeAmount = .seconds(15)

    /// One event: `event: NAME` and one line of data.
    static func event(_ name: String, _ data: String) -> String { "event: \(name)\ndata: \(data)\n\n" }
}

extension HTTPHandler: PushSink {
    func startStream(_ tenant: TenantRuntime, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        disarm()
        // From here the stream writes its own bytes. Without the HTTP handlers each event is one
        // write of a buffer kept for every push like it, as a protocol push is; the encoder would
        // frame and copy each as a chunk. The response ends when the connection closes.
        let sync = context.pipeline.syncOperations
        // Every handler configureHTTPServerPipeline adds, whichever of them are there.
        let handlers = [
            try? sync.context(handlerType: HTTPServerPipelineHandler.self),
            try? sync.context(handlerType: HTTPServerProtocolErrorHandler.self),
            try? sync.context(handlerType: NIOHTTPResponseHeadersValidator.self),
            try? sync.context(handlerType: HTTPResponseEncoder.self),
            try? sync.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self),
        ]
        let removed = handlers.compactMap { $0 }.map { sync.removeHandler(context: $0) }
        EventLoopFuture.andAllSucceed(removed, on: context.eventLoop).assumeIsolated().whenComplete { result in
            guard case .success = result, context.channel.isActive else { return context.close(promise: nil) }
            self.beginStream(tenant, for: request, context: context)
        }
    }

    /// The stream's head and first event, once the connection is the stream's alone.
    private func beginStream(_ tenant: TenantRuntime, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        let head =
            "HTTP/\(request.version.major).\(request.version.minor) 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
            + "Cache-Control: no-store\r\nX-Accel-Buffering: no\r\nConnection: close\r\n\r\n"
        context.write(NIOAny(context.channel.allocator.buffer(string: head)), promise: nil)
        let subscribed: TenantRuntime.Subscribed
        do {
            subscribed = try tenant.subscribe(
                id: 1, topics: [.onDuty, .roster], filter: .init(), connection: self,
                sinceRevision: nil, epoch: nil, schedules: [], allSchedules: true)
        } catch {
            // Following every schedule from now cannot be refused; should it be, the stream ends.
            context.flush()
            return context.close(promise: nil)
        }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let heartbeat = context.eventLoop.scheduleRepeatedTask(
            initialDelay: EventStream.heartbeat, delay: EventStream.heartbeat
        ) { _ in
            handler.value.send(": keep-alive\n\n", flush: true)
        }
        stream = EventStream(
            tenant: tenant, subscription: subscribed.subscription, heartbeat: heartbeat,
            allocator: context.channel.allocator)
        api.side.streamOpened(context.channel)
        // The reconnection delay, and the revision the stream starts at.
        send("retry: 3000\n" + EventStream.event("hello", "{\"revision\":\(subscribed.revision)}"), flush: true)
    }

    /// Leaves the fan-out and stops the timers; the connection is closing.
    func endStream(context: ChannelHandlerContext) {
        guard let stream else { return }
        self.stream = nil
        stream.heartbeat.cancel()
        stream.stallDeadline?.cancel()
        stream.tenant.fanout(on: eventLoop).remove(stream.subscription)
        api.side.streamClosed(context.channel)
    }

    private func send(_ text: String, flush: Bool) {
        guard let context else { return }
        send(context.channel.allocator.buffer(string: text), flush: flush)
    }

    private func send(_ bytes: ByteBuffer, flush: Bool) {
        guard let context else { return }
        // Raw bytes: the HTTP encoder left the pipeline when the stream began.
        context.write(NIOAny(bytes), promise: nil)
        if flush { context.flush() }
    }

    // MARK: PushSink (on this connection's loop)

    func push(
        _ kind: ConnectionStateMachine.PushKind, _ frame: ByteBuffer, subscription id: UInt64, at instant: PushInstant,
        heldKey: String
    ) -> PushOutcome {
        guard let stream, let context else { return .notSent }
        let bytes: ByteBuffer
        switch kind {
        case .onDuty:
            if let last = stream.onDutyEvent, last.schedule == heldKey {
                bytes = last.bytes
            } else {
                bytes = context.channel.allocator.buffer(
                    string: EventStream.event("onduty", "{\"schedule\":\(JSONText.quoted(heldKey))}"))
                stream.onDutyEvent = (heldKey, bytes)
            }
        case .roster: bytes = stream.rosterEvent
        case .notice, .progress, .escalation: return .notSent
        }
        switch stream.slowConsumer.push(kind, to: 1, writable: context.channel.isWritable) {
        case .write: break
        case .drop: return .notSent
        case .coalesce:
            stream.heldOnDuty[heldKey] = bytes
            armStallDeadline(stream, context: context)
            return .notSent
        case .resyncWhenDrained:
            armStallDeadline(stream, context: context)
            return .notSent
        }
        send(bytes, flush: false)
        if stream.flushDue { return .written }
        stream.flushDue = true
        return .writtenFlushLater
    }

    private func armStallDeadline(_ stream: EventStream, context: ChannelHandlerContext) {
        guard stream.stallDeadline == nil else { return }
        stream.stallDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: timing.idle) {
            // Reset, not a graceful close: what the kernel still holds for a reader that does not
            // read is dropped now rather than kept for an orphaned socket.
            let reset =
                (context.channel as? any SocketOptionProvider)?.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                ?? context.eventLoop.makeSucceededVoidFuture()
            reset.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    func flushPushes() {
        stream?.flushDue = false
        context?.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if let stream, context.channel.isWritable {
            stream.stallDeadline?.cancel()
            stream.stallDeadline = nil
            let (held, resync) = stream.slowConsumer.drained()
            if !held.isEmpty {
                for (_, event) in stream.heldOnDuty.sorted(by: { $0.key < $1.key }) { send(event, flush: false) }
            }
            stream.heldOnDuty.removeAll()
            if !resync.isEmpty {
                send(context.channel.allocator.buffer(string: EventStream.event("resync", "{}")), flush: false)
            }
            context.flush()
        }
        context.fireChannelWritabilityChanged()
    }
}
