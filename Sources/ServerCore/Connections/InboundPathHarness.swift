import Foundation
import Logging
import NIOCore
import RosterDomain
import RosterProtocol
import RosterStore

/// One server connection's whole inbound path (frame decoder, handshake, authentication,
/// dispatch, subscriptions) on a channel the caller provides, with no listener: what the
/// FuzzConnection target drives through an EmbeddedChannel. The tenant is the demo directory
/// with a shift plan around `now`; the listener counts as loopback (anonymous readers allowed).
/// RosterHTTP's `HTTPRequestHarness` answers HTTP requests against the same server.
public final class InboundPathHarness: Sendable {
    package let core: ServerCore
    private let listener: ProtocolConnections
    package let store: any RosterStore
    /// An admin token of the demo tenant, which a fuzzer's Hello may present.
    public let adminToken: String
    /// The server's clock: nothing moves it but `advanceClock(to:)`.
    private let clock: ManualClock
    /// Queued admin work runs only inside `settle`, while the caller leaves the loop alone.
    private let gate = JobGate()

    /// - Parameters:
    ///   - loop: the loop every attached channel runs on (an EmbeddedEventLoop).
    ///   - store: an empty store (the fuzzers give a SQLite file in `dataDirectory`).
    public init(loop: any EventLoop, store: any RosterStore, dataDirectory: String, now: UnixMillis) throws {
        var configuration = ServerConfiguration(dataDirectory: dataDirectory)
        configuration.limits.maxFrameBytes = 64 << 10
        self.store = store
        let clock = ManualClock(now: now)
        self.clock = clock
        let shifts = DemoRoster.people.enumerated().map { index, person in
            Shift(
                id: "s\(index)", employeeID: person.id, start: now + Int64(index - 2) * 3_600_000,
                end: now + Int64(index - 1) * 3_600_000, role: index % 2 == 0 ? "primary" : "")
        }
        let state = RosterState(
            tenant: Tenant(id: "demo", name: DemoRoster.tenantName, motd: DemoRoster.motd),
            employees: DemoRoster.people, shifts: shifts)
        let tenant = TenantRuntime(
            stored: StoredTenant(state: state, epoch: 1, revision: 1, history: []), clock: clock,
            historyLimit: 100, loops: [loop])
        var logger = Logger(label: "roster.fuzz")
        logger.logLevel = .critical
        let admin = AccessToken.issue(tenantID: "demo", role: .admin, label: "fuzz", now: now)
        adminToken = admin.text
        core = ServerCore(
            configuration: configuration, defaultTenant: "demo", clock: clock, logger: logger,
            tenants: ["demo": tenant],
            tokens: TokenRegistry([admin.stored]), store: store, work: .inline(), mutationGate: gate)
        listener = ProtocolConnections(core: core, tls: nil, loops: [loop], isLoopback: true)
        tenant.startOnDutyTracking()
    }

    /// Moves the server's clock to `instant`, running the handoffs due by then (their pushes are
    /// queued on the loop: run it to have them written).
    public func advanceClock(to instant: UnixMillis) {
        clock.advance(to: instant)
    }

    /// What an admin request would commit, worked out and validated as the server does before it
    /// stores anything (no store, no tenant change): the planning and validation of edits and
    /// imports, for a fuzzer. Returns whether it would commit.
    public func planAsAdmin(_ message: RosterMessage) -> Bool {
        guard let tenant = core.tenant("demo") else { return false }
        let actor = Caller(tokenID: "fuzz", name: "fuzz", isAdmin: true)
        let view = tenant.view, now = core.clock.now()
        guard case .commit(let changes) = core.admin.plan(message, view: view, actor: actor, now: now) else {
            return false
        }
        if case .success = core.admin.stage(
            changes.located, view: view, tenantID: "demo", actor: actor, reason: "", now: now)
        {
            return true
        }
        return false
    }

    /// Whether work the connection handed off the loop is done: requests queued behind admin
    /// changes and writes nobody waits for (a refused Hello's audit entry).
    public var isSettled: Bool {
        core.mutations.isIdle && core.work.isIdle && core.detachedWrites.withLockedValue { $0 == 0 }
    }

    /// Runs the work the connection handed off the loop, and what it scheduled back on the loop,
    /// until none is left. An EmbeddedEventLoop must not be touched by two threads: queued jobs
    /// complete their promises on it from another thread, so they run only here, while the caller
    /// is waiting (call it from the loop's thread, never from inside the loop), and an input
    /// never ends while one runs (it would run into the next input, or look like a leak of this one).
    public func settle(runningTheLoop run: () -> Void) {
        repeat {
            gate.open()
            while !isSettled { usleep(50) }
            gate.close()
            run()
        } while !isSettled
    }

    /// Builds the server's own connection pipeline on `channel` (call on its loop, before it
    /// becomes active): the same function the listener calls for every connection.
    public func attach(to channel: any Channel) throws {
        try listener.configurePipeline(of: channel)
    }
}
