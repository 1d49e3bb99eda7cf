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
/// every `heartbeat` keeps proxies from closing an idle stream; a reader that stops reading is
/// sent nothing more (frames are not queued for it) and is closed after `--http-idle-timeout-ms`
/// of not draining; once it drains in time, a `resync` event tells it it missed something.
/// Streams close when the server stops.
final class EventStream {
    let tenant: TenantRuntime
    let subscription: Subscription
    let heartbeat: RepeatedTask
    /// A push was dropped while the connection was not writable: send `resync` once it is.
    var missed = false
    /// Pushes were written and not yet flushed.
    var flushDue = false
    /// The last on-duty event written and its schedule: a schedule's handoffs, pushed again
    /// and again, are encoded once per stream.
    var onDutyEvent: (schedule: String, text: String)?
    var stallDeadline: Scheduled<Void>?

    init(tenant: TenantRuntime, subscription: Subscription, heartbeat: RepeatedTask) {
        self.tenant = tenant
        self.subscription = subscription
        self.heartbeat = heartbeat
    }

    static let heartbeat: TimeAmount = .seconds(15)

    /// One event: `event: NAME` and one line of data.
    static func event(_ name: String, _ data: String) -> String { "event: \(name)\ndata: \(data)\n\n" }
}

extension HTTPHandler: PushSink {
    func startStream(_ tenant: TenantRuntime, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        disarm()
        let headers = HTTPHeaders([("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                                   ("X-Accel-Buffering", "no")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: .ok, headers: headers))), promise: nil)
        let subscribed: TenantRuntime.Subscribed
        do {
            subscribed = try tenant.subscribe(id: 1, topics: [.onDuty, .roster], filter: .init(), connection: self,
                                              sinceRevision: nil, epoch: nil, schedules: [], allSchedules: true)
        } catch {
            // Following every schedule from now cannot be refused; should it be, the stream ends.
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return context.close(promise: nil)
        }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let heartbeat = context.eventLoop.scheduleRepeatedTask(initialDelay: EventStream.heartbeat, delay: EventStream.heartbeat) { _ in
            handler.value.send(": keep-alive\n\n", flush: true)
        }
        stream = EventStream(tenant: tenant, subscription: subscribed.subscription, heartbeat: heartbeat)
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
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: text)))), promise: nil)
        if flush { context.flush() }
    }

    // MARK: PushSink (on this connection's loop)

    func push(_ kind: ConnectionStateMachine.PushKind, _ frame: ByteBuffer, subscription id: UInt64, at instant: PushInstant,
              heldKey: String) -> PushOutcome {
        guard let stream, let context else { return .notSent }
        let text: String
        switch kind {
        case .onDuty:
            if let last = stream.onDutyEvent, last.schedule == heldKey {
                text = last.text
            } else {
                text = EventStream.event("onduty", "{\"schedule\":\(JSONText.quoted(heldKey))}")
                stream.onDutyEvent = (heldKey, text)
            }
        case .roster: text = EventStream.event("roster", "{}")
        case .notice, .progress: return .notSent
        }
        guard context.channel.isWritable else {
            stream.missed = true
            if stream.stallDeadline == nil {
                stream.stallDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: timing.idle) { context.close(promise: nil) }
            }
            return .notSent
        }
        send(text, flush: false)
        if stream.flushDue { return .written }
        stream.flushDue = true
        return .writtenFlushLater
    }

    func flushPushes() {
        stream?.flushDue = false
        context?.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if let stream, context.channel.isWritable {
            stream.stallDeadline?.cancel()
            stream.stallDeadline = nil
            if stream.missed {
                stream.missed = false
                send(EventStream.event("resync", "{}"), flush: true)
            }
        }
        context.fireChannelWritabilityChanged()
    }
}
