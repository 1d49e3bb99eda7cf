import Logging
import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol

/// A connection's subscriptions: subscribing (the initial sync), and the `PushSink` side the
/// fan-out writes pushes through.
extension ConnectionHandler {
    // MARK: Subscriptions

    /// `caughtUp`: this is the second try, after reading the store for a resume from a revision
    /// another node committed (then a client ahead of this node is told to try again, never given
    /// older state than it has).
    func subscribe(
        _ request: Roster_V1_SubscribeRequest, id: UInt64, topics: Set<Roster_V1_Topic>, requestID: UInt32,
        caughtUp: Bool? = nil
    ) {
        guard let tenant, let context else { return }
        let subscribed: TenantRuntime.Subscribed
        do {
            subscribed = try tenant.subscribe(
                id: id, topics: topics, filter: request.filter, connection: self,
                sinceRevision: request.hasSinceRevision ? request.sinceRevision : nil,
                epoch: request.hasSinceRevision ? request.epoch : nil,
                schedules: request.schedules, allSchedules: request.allSchedules,
                sinceNotice: request.hasSinceNotice ? request.sinceNotice : nil, noticePeople: request.noticePeople,
                services: request.services, escalationPolicies: request.escalationPolicies)
        } catch .aheadOfThisNode(let requested, let held, let oldest) where core.sharesStore {
            switch caughtUp {
            case nil:
                // Read what other nodes committed (in order with this tenant's changes), then try again.
                let core = self.core
                let read = context.eventLoop.makePromise(of: Bool.self)
                let queued = core.mutations.submit(tenant.id) { read.succeed(await core.catchUp(tenant)) }
                guard queued else {
                    read.succeed(false)
                    write(ConnectionReplies.behind(requested: requested, held: held, requestID: requestID), flush: true)
                    return
                }
                read.futureResult.assumeIsolated().whenSuccess { read in
                    self.subscribe(request, id: id, topics: topics, requestID: requestID, caughtUp: read)
                }
            case false?:
                write(ConnectionReplies.behind(requested: requested, held: held, requestID: requestID), flush: true)
            case true?:
                // The store has nothing newer: the client's revision is not there (a restored store).
                write(
                    ConnectionReplies.refusal(
                        .aheadOfThisNode(requested: requested, held: held, oldestResumable: oldest),
                        requestID: requestID), flush: true)
            }
            return
        } catch {
            write(ConnectionReplies.refusal(error, requestID: requestID), flush: true)
            return
        }
        machine.subscribed(id)
        subscriptions.add(subscribed.subscription)
        if topics.contains(.notices) { core.noticesWanted(by: tenant) }
        for message in PushEncoding.initialSync(subscribed, topics: topics, filter: request.filter) {
            let frames =
                if case .snapshot(let snapshot) = message, let limit = snapshotPartsLimit {
                    SnapshotParts.frames(snapshot, requestID: requestID, maxFrameBytes: limit)
                } else {
                    [message.frame(requestID: requestID)]
                }
            for frame in frames {
                core.metrics?.sent(frame)
                write(frame.encoded(allocator: context.channel.allocator), flush: false)
            }
        }
        context.flush()
    }

    // MARK: Pushes (PushSink: called by LoopFanout on this loop)

    /// Writes or holds back one pushed frame, as the machine says. A connection with one
    /// subscription gets nothing else in this fan-out, so its frame is written and flushed at
    /// once. With several, the frame is only written, and the first such frame in a fan-out
    /// asks the fan-out to flush once, after every subscriber on the loop was written (one flush
    /// per connection, not one per frame). `heldKey` keeps one held-back on-duty frame per
    /// schedule. (After channelInactive the machine is closing and refuses.)
    func push(
        _ kind: ConnectionStateMachine.PushKind, _ frame: ByteBuffer, subscription id: UInt64, at instant: PushInstant,
        heldKey: String
    ) -> PushOutcome {
        guard context != nil else { return .notSent }
        if let refusal = machine.pushRefusal(now: instant.wall) {
            run(refusal)
            return .notSent
        }
        switch machine.push(kind, to: id, writable: isWritable) {
        case .writeAndFlush:
            write(frame, flush: true)
            return .sent
        case .write:
            write(frame, flush: false)
            defer { flushPending = true }
            return flushPending ? .written : .writtenFlushLater
        case .drop:
            return .notSent
        case .coalesce:
            core.metrics?.coalescedOnDuty()
            subscriptions.holdOnDuty(frame, for: id, schedule: heldKey)
            armWriteStallDeadline()
            return .notSent
        case .resyncWhenDrained:
            armWriteStallDeadline()
            return .notSent
        }
    }

    func flushPushes() {
        flushPending = false
        context?.flush()
    }

    private func armWriteStallDeadline() {
        guard writeStallDeadline == nil else { return }
        let deadline = core.configuration.limits.writeDeadline
        writeStallDeadline = eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(deadline)) {
            self.logger.warning(
                "slow consumer: writes stalled for \(deadline), disconnecting", metadata: self.logMetadata)
            self.core.metrics?.slowConsumerDisconnected()
            self.context?.close(promise: nil)
        }
    }

    /// Not writable: the write-stall deadline starts, whatever filled the buffer (answers,
    /// snapshots or pushes). Writable again: held on-duty frames and resync notices go out, and
    /// the input that waited is worked through.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        isWritable = context.channel.isWritable
        if isWritable {
            writeStallDeadline?.cancel()
            writeStallDeadline = nil
            let (flush, ended) = machine.drained()
            for frame in subscriptions.drained(flush: flush, ended: ended, on: eventLoop) { write(frame, flush: false) }
            context.flush()
            if inputWaiting { workThroughInput() }
        } else {
            armWriteStallDeadline()
        }
        context.fireChannelWritabilityChanged()
    }
}
