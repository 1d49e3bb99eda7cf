import Foundation
import Observation
import RosterClient
import RosterDomain

/// Who is on duty on one schedule.
public struct ScheduleOnDuty: Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var status: OnDutyStatus
}

/// The roster screen of the original apps, for any UI: tenant and motd, who is on duty now (live
/// from pushes, and ticking at handoffs from the cached plan while offline), the directory in
/// sections grouped by position or team, a search field, and a state with the message to show.
///
/// Bind a screen to it and call `run()` for as long as the screen is shown (SwiftUI:
/// `.task { await model.run() }`); `refresh()` is pull-to-refresh.
@MainActor @Observable
public final class RosterScreenModel {
    /// What the screen shows besides its data.
    public enum State: Sendable, Equatable {
        case loading
        case loaded
        /// The directory has nobody in it.
        case empty
        /// The data could not be read: a record is invalid, or the cache file is corrupt.
        case malformed
        /// Not connected; the data shown is from `dataFrom` (nil when there is none).
        case offline(dataFrom: Date?)
        /// The server refused us, or something else went wrong, as a sentence.
        case error(String)
    }

    public private(set) var state: State = .loading
    /// The roster shown (the cache at launch, then the server's).
    public private(set) var roster: CachedRoster?
    public private(set) var connection: ConnectionState = .offline
    public private(set) var tenantName = ""
    public private(set) var motd = ""
    /// On duty now, per schedule.
    public private(set) var onDuty: [ScheduleOnDuty] = []
    /// The directory as the screen lists it: `grouping`, filtered by `searchText`.
    public private(set) var sections: [EmployeeGroup] = []
    /// A note worth showing next to the data (a corrupt cache that was ignored), or nil.
    public private(set) var notice: String?
    /// Why the server refused the session for good (bad or revoked credentials), once it did.
    public private(set) var refusal: RosterClientError?

    public var grouping: EmployeeGrouping = .position { didSet { rebuildSections() } }
    /// Filters `sections` over first name, last name, email, projects, position and team,
    /// ignoring case and diacritics.
    public var searchText = "" { didSet { rebuildSections() } }

    public let contacts: (any ContactsDirectory)?
    private let source: any RosterSource
    private let clock: @Sendable () -> UnixMillis
    /// The server's latest on-duty push per schedule id, used while live and still current.
    private var pushed: [String: OnDutyStatus] = [:]
    /// Employees of `roster`, each person once (by full name, ignoring case and diacritics).
    private var directory: [Employee] = []
    private var problem: String?
    private var malformed = false
    private var hasTriedToConnect = false
    /// Wakes the model at the next handoff; re-armed whenever who is on duty is recomputed.
    private var handoffTimer: Task<Void, Never>?
    private var isRunning = false

    /// - Parameter clock: the wall clock, in Unix milliseconds; tests pass their own.
    public init(
        source: any RosterSource, contacts: (any ContactsDirectory)? = nil,
        clock: @escaping @Sendable () -> UnixMillis = { .now }
    ) {
        self.source = source
        self.contacts = contacts
        self.clock = clock
    }

    /// The message for `state` as the original apps wrote it, or nil when the data speaks for itself.
    public func message(now: Date = Date()) -> String? {
        switch state {
        case .loading: return "Loading…"
        case .loaded: return nil
        case .empty: return "No employees found"
        case .malformed: return "Malformed employees found"
        case .offline(let from):
            guard let from else { return "No connection to \(source.serverName)" }
            return "No connection — showing data from \(DurationText.age(seconds: now.timeIntervalSince(from))) ago"
        case .error(let sentence): return sentence
        }
    }

    // MARK: Running

    /// Shows the cache, starts the client, applies its updates and ticks at handoffs, until the
    /// task is cancelled; then stops the client.
    public func run() async {
        if let cached = await source.currentRoster() { show(cached) }
        await source.start()
        isRunning = true
        tick()
        // Ends when the task is cancelled (or the client finishes its stream).
        for await update in source.updates { await receive(update) }
        isRunning = false
        handoffTimer?.cancel()
        handoffTimer = nil
        await source.stop()
    }

    /// Asks the server for the whole roster, even when data is cached (the network is always
    /// asked); on failure the data stays and the state says why.
    public func refresh() async {
        do {
            show(try await source.refresh())
            problem = nil
        } catch let error as RosterClientError {
            if case .server = error { problem = error.description } else { hasTriedToConnect = true }
        } catch {
            problem = "\(error)"
        }
        updateState()
    }

    /// Applies one update of the client, in order (called by `run`; tests call it directly).
    public func receive(_ update: RosterUpdate) async {
        switch update {
        case .connectionState(let state):
            connection = state
            if state != .connecting { hasTriedToConnect = true }
            if state == .live { problem = nil }
        case .synced(let roster):
            show(roster)
        case .rosterChanged:
            if let roster = await source.currentRoster() { show(roster) }
        case .onDutyChanged(let status):
            pushed[status.scheduleID] = status
            tick()
        case .resyncing:
            break
        case .goingAway:
            break
        case .cacheProblem(let problem):
            notice = problem.description
            if roster == nil { malformed = true }
        case .refused(let error):
            refusal = error
            problem = "The server refused the connection: \(error.description)"
        }
        updateState()
    }

    /// Recomputes who is on duty at `now` (the clock's when nil): the server's push while live
    /// and current, otherwise the cached plan, as `roster-client now` answers offline.
    public func tick(now: UnixMillis? = nil) {
        let now = now ?? clock()
        guard let roster else {
            onDuty = []
            armHandoffTimer()
            return
        }
        var schedules: [ScheduleOnDuty] = []
        for definition in roster.state.sortedSchedules {
            let status: OnDutyStatus
            if connection == .live, let pushed = pushed[definition.id], pushed.until.map({ now < $0 }) ?? true,
                pushed.revision >= roster.revision
            {
                status = pushed
            } else if let cached = roster.onDuty(schedule: definition.id, at: now) {
                status = cached
            } else {
                continue
            }
            // Every schedule by its own name, the default one too ("Default" unless renamed), as
            // `schedules` and `now` call it.
            schedules.append(ScheduleOnDuty(id: definition.id, name: definition.name, status: status))
        }
        // With other schedules, the default one is shown only when it has something on it.
        if schedules.count > 1 {
            schedules.removeAll {
                $0.id == ScheduleDefinition.defaultID && $0.status.current.isEmpty && $0.status.until == nil
            }
        }
        if onDuty != schedules { onDuty = schedules }
        armHandoffTimer()
    }

    /// While `run` runs, wakes at the next handoff (at least once a minute, in case the wall
    /// clock was set) and ticks, which arms the timer again.
    private func armHandoffTimer() {
        handoffTimer?.cancel()
        handoffTimer = nil
        guard isRunning else { return }
        let now = clock()
        let wait = max(1, min((onDuty.compactMap(\.status.until).min() ?? now + 60_000) - now, 60_000))
        handoffTimer = Task { [weak self] in
            do { try await Task.sleep(for: .milliseconds(wait)) } catch { return }
            self?.tick()
        }
    }

    // MARK: Deriving what is shown

    private func show(_ roster: CachedRoster) {
        self.roster = roster
        tenantName = roster.state.tenant.name.isEmpty ? roster.state.tenant.id : roster.state.tenant.name
        motd = roster.state.tenant.motd
        let empty = RosterState(tenant: roster.state.tenant)
        malformed = roster.state.employees.values.contains { !empty.violations(of: .employeeUpserted($0)).isEmpty }
        var seen = Set<String>()
        directory = roster.state.sortedEmployees.filter { seen.insert(TextFolding.fold($0.fullName)).inserted }
        rebuildSections()
        tick()
        updateState()
    }

    private func rebuildSections() {
        guard !malformed else {
            sections = []
            return
        }
        sections = directory.matching(searchText).grouped(by: grouping)
    }

    private func updateState() {
        let next: State
        if malformed {
            next = .malformed
        } else if let problem {
            next = .error(problem)
        } else if connection != .live && hasTriedToConnect && connection != .connecting {
            next = .offline(dataFrom: roster?.syncedAt)
        } else if let roster {
            next = roster.state.employees.isEmpty ? .empty : .loaded
        } else {
            next = .loading
        }
        if state != next { state = next }
    }
}
