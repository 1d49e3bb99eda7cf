import NIOConcurrencyHelpers
import NIOCore
import RosterDomain
import RosterProtocol

/// Runs admin mutations one at a time, in arrival order. A single writer matches SQLite (one
/// write transaction at a time) and lets validation see the state the previous mutation left,
/// with no interleaving across the store's await.
package final class MutationQueue: Sendable {
    package typealias Job = @Sendable () async -> Void

    private let continuation: AsyncStream<Job>.Continuation
    private let worker: Task<Void, Never>
    /// Jobs queued or running.
    private let pending: NIOLockedValueBox<Int>

    init(gate: JobGate? = nil) {
        let (stream, continuation) = AsyncStream<Job>.makeStream()
        let pending = NIOLockedValueBox(0)
        self.continuation = continuation
        self.pending = pending
        worker = Task {
            for await job in stream {
                await gate?.pass()
                await job()
                pending.withLockedValue { $0 -= 1 }
            }
        }
    }

    /// Queues `job`; returns false once the queue has been finished.
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        pending.withLockedValue { $0 += 1 }
        if case .enqueued = continuation.yield(job) { return true }
        pending.withLockedValue { $0 -= 1 }
        return false
    }

    /// Whether every job queued so far has finished.
    var isIdle: Bool { pending.withLockedValue { $0 == 0 } }

    /// Stops accepting jobs and waits for the queued ones to finish.
    func finish() async {
        continuation.finish()
        await worker.value
    }
}

/// One `MutationQueue` per tenant: a tenant's admin changes and the work that must see them in
/// order (catching up with other nodes, planning notices, calendar feeds) run one at a time and
/// in arrival order, while another tenant's run beside them, so one tenant's slow change never
/// waits in front of another's.
package final class TenantQueues: Sendable {
    private struct State {
        var queues: [String: MutationQueue] = [:]
        var finished = false
    }

    private let state = NIOLockedValueBox(State())
    private let gate: JobGate?

    /// - Parameter gate: jobs start only while it is open (a harness driving an EmbeddedEventLoop).
    init(gate: JobGate? = nil) { self.gate = gate }

    /// Queues `job` behind the tenant's earlier ones; false once the queues are finished.
    @discardableResult
    package func submit(_ tenantID: String, _ job: @escaping MutationQueue.Job) -> Bool {
        let queue: MutationQueue? = state.withLockedValue { state in
            guard !state.finished else { return nil }
            if let queue = state.queues[tenantID] { return queue }
            let made = MutationQueue(gate: gate)
            state.queues[tenantID] = made
            return made
        }
        return queue?.submit(job) ?? false
    }

    /// Whether every job queued so far has finished.
    var isIdle: Bool { state.withLockedValue { $0.queues.values.allSatisfy(\.isIdle) } }

    /// Stops accepting jobs and waits for the queued ones to finish.
    package func finish() async {
        let queues = state.withLockedValue { state in
            state.finished = true
            return Array(state.queues.values)
        }
        for queue in queues { await queue.finish() }
    }
}

/// Holds queued jobs until opened. An EmbeddedEventLoop is not thread-safe, and a job completes
/// its connection's promise on that loop from the queue's thread: a harness driving such a loop
/// (InboundPathHarness) lets jobs run only while it is not touching the loop itself. Without it,
/// a job quick enough to finish while the loop was still reading the request crashed the fuzzer
/// (FuzzConnection, an anonymous GetCalendar beside a loaded machine).
package final class JobGate: Sendable {
    private let state = NIOLockedValueBox<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Returns once the gate is open.
    func pass() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let open = state.withLockedValue { state in
                if !state.open { state.waiting.append(waiter) }
                return state.open
            }
            if open { waiter.resume() }
        }
    }

    func open() {
        let waiting = state.withLockedValue { state in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    func close() { state.withLockedValue { $0.open = false } }
}

extension ServerCore {
    /// Queues an admin change behind the tenant's earlier ones; the future completes on `loop` with
    /// the result once it is durable (or refused). The revision is published from `loop` right
    /// after that answer was written and flushed, so the admin never waits behind the fan-out;
    /// the queue waits for the publish, so revisions reach subscribers in order.
    /// GetAudit queues here too, so that it sees every change acknowledged before it was asked.
    func perform(
        _ message: RosterMessage, on tenant: TenantRuntime, actor: Caller,
        loop: any EventLoop
    ) -> EventLoopFuture<Result<RosterMessage, WireError>> {
        let promise = loop.makePromise(of: Result<RosterMessage, WireError>.self)
        if case .getReport(let request) = message {
            // Reads behind the queue, computes off it (`report`).
            promise.completeWithTask { await self.report(request, on: tenant, actor: actor).map(RosterMessage.report) }
            return promise.futureResult
        }
        if case .identityAdmin(let request) = message {
            // Off the queue: setting sign-in up asks the provider, which may take seconds.
            promise.completeWithTask {
                guard let singleSignOn = self.singleSignOn else {
                    return .failure(WireError(.unavailable, "sign-in with an identity provider is off on this server"))
                }
                return await singleSignOn.administer(request, tenant: tenant, actor: actor, core: self)
            }
            return promise.futureResult
        }
        let admin = self.admin
        let queued = mutations.submit(tenant.id) {
            if case .getAudit(let request) = message {
                promise.succeed(await admin.audit(request, on: tenant).map(RosterMessage.audit))
                return
            }
            if case .notificationAdmin(let request) = message {
                guard let notifications = self.notifications else {
                    promise.succeed(.failure(WireError(.unavailable, "notifications are off on this server")))
                    return
                }
                promise.succeed(await notifications.administer(request, tenant: tenant, actor: actor))
                return
            }
            if case .push(let request) = message {
                guard let notifications = self.notifications else {
                    promise.succeed(.failure(WireError(.unavailable, "notifications are off on this server")))
                    return
                }
                promise.succeed(await notifications.push(request, tenant: tenant, actor: actor))
                return
            }
            if case .getCalendar(let request) = message {
                promise.succeed(await self.calendar(request, tenant: tenant, actor: actor))
                return
            }
            if case .personalTokens(let request) = message {
                promise.succeed(await self.personalTokens(request, tenant: tenant, actor: actor))
                return
            }
            let attempt = {
                () async -> (
                    answer: Result<RosterMessage, WireError>, committed: TenantRuntime.CommittedRevision?,
                    conflicted: Bool
                ) in
                if case .applyDefinition(let request) = message {
                    let applied = await admin.applyDefinition(request, on: tenant, actor: actor)
                    return (applied.result.map(RosterMessage.definitionPlan), applied.committed, applied.conflicted)
                }
                let performed = await admin.perform(message, on: tenant, actor: actor)
                return (performed.result.map(RosterMessage.mutationResult), performed.committed, performed.conflicted)
            }
            var outcome = await attempt()
            // Another node committed to the tenant first (a shared store): take its changes and
            // validate the request again against the plan as it now is.
            let patience = ContinuousClock.now + AdminOperations.conflictPatience
            while outcome.conflicted && ContinuousClock.now < patience {
                await self.resolveConflict(tenant)
                outcome = await attempt()
            }
            promise.succeed(outcome.answer)
            guard let committed = outcome.committed else { return }
            // Queued on the loop behind the answer's callbacks (which write it).
            try? await loop.submit { tenant.publish(committed) }.get()
        }
        if !queued {
            promise.succeed(.failure(WireError(.unavailable, "the server is shutting down", retryable: true)))
        }
        return promise.futureResult
    }
}

extension ServerCore {
    /// A change asked for by the web app, by the holder of `credential`: queued, checked,
    /// committed and published exactly as the same request over the protocol.
    package func perform(
        _ message: RosterMessage, on tenant: TenantRuntime, credential: Credential, address: String,
        loop: any EventLoop
    ) -> EventLoopFuture<Result<RosterMessage, WireError>> {
        perform(message, on: tenant, actor: Caller(credential, address: address), loop: loop)
    }
}
