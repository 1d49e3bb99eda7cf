import Foundation
import NIOConcurrencyHelpers
import NIOCore
import RosterDomain

/// A scheduled alarm that can be called off.
public protocol ScheduledAlarm: Sendable {
    func cancel()
}

/// The server's notion of wall-clock time. On-duty boundaries are wall-clock instants, so the
/// server asks this clock for "now", arms alarms at boundaries, and hears about clock jumps.
/// Tests inject `ManualClock` and move time by hand; nothing in the tests sleeps for a boundary.
public protocol ServerClock: Sendable {
    func now() -> UnixMillis
    /// Runs `action` once the wall clock has reached `instant`.
    func schedule(at instant: UnixMillis, _ action: @escaping @Sendable () -> Void) -> any ScheduledAlarm
    /// Runs `action` whenever the wall clock jumps (is set forwards or backwards).
    func onJump(_ action: @escaping @Sendable () -> Void)
}

/// Where a `ServerClock.sleep` stands.
private enum ClockWait {
    case armed(CheckedContinuation<Void, any Error>), cancelled, done
}

extension ServerClock {
    /// Suspends until this clock reaches `instant` (so a `ManualClock` moves it by hand); throws
    /// `CancellationError` if the task is cancelled first, and calls the alarm off.
    func sleep(until instant: UnixMillis) async throws {
        let wait = NIOLockedValueBox<ClockWait?>(nil)
        let alarm = NIOLockedValueBox<(any ScheduledAlarm)?>(nil)
        /// Resumes the waiter once, whichever of the alarm and the cancellation comes first.
        @Sendable func finish(_ result: Result<Void, any Error>) {
            let waiter: CheckedContinuation<Void, any Error>? = wait.withLockedValue { state in
                guard case .armed(let continuation) = state else {
                    if case .none = state, case .failure = result { state = .cancelled }
                    return nil
                }
                state = .done
                return continuation
            }
            waiter?.resume(with: result)
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelledAlready = wait.withLockedValue { state -> Bool in
                    if case .cancelled = state { return true }
                    state = .armed(continuation)
                    return false
                }
                if cancelledAlready {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let armed = schedule(at: instant) { finish(.success(())) }
                alarm.withLockedValue { $0 = armed }
                // Cancelled while arming: call off the alarm the handler could not see.
                if case .done = wait.withLockedValue({ $0 }) { armed.cancel() }
            }
        } onCancel: {
            alarm.withLockedValue { $0?.cancel() }
            finish(.failure(CancellationError()))
        }
    }
}

/// The real clock: alarms on an event loop's timer wheel, jump detection by comparing the wall
/// clock with the monotonic clock once a second.
public final class SystemClock: ServerClock {
    private let loop: any EventLoop
    private let jumpHandlers = NIOLockedValueBox<[@Sendable () -> Void]>([])
    private let watchdog = NIOLockedValueBox<RepeatedTask?>(nil)

    public init(loop: any EventLoop) {
        self.loop = loop
    }

    public func now() -> UnixMillis { UnixMillis.now }

    public func schedule(at instant: UnixMillis, _ action: @escaping @Sendable () -> Void) -> any ScheduledAlarm {
        // The loop's timers are monotonic: if the wall clock moves meanwhile, the jump handlers
        // re-arm, and a callback that fires early finds the set unchanged and re-arms itself.
        let delay = max(0, instant - now())
        return SystemAlarm(task: loop.scheduleTask(in: .milliseconds(delay)) { action() })
    }

    public func onJump(_ action: @escaping @Sendable () -> Void) {
        jumpHandlers.withLockedValue { $0.append(action) }
        watchdog.withLockedValue { task in
            guard task == nil else { return }
            let offset = NIOLockedValueBox(Self.wallMinusMonotonic())
            task = loop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { [jumpHandlers] _ in
                let current = Self.wallMinusMonotonic()
                let moved = offset.withLockedValue { previous in
                    defer { previous = current }
                    return abs(current - previous) > 500
                }
                if moved { for handler in jumpHandlers.withLockedValue({ $0 }) { handler() } }
            }
        }
    }

    public func stop() {
        watchdog.withLockedValue {
            $0?.cancel(); $0 = nil
        }
    }

    private static func wallMinusMonotonic() -> Int64 {
        UnixMillis.now - Int64(NIODeadline.now().uptimeNanoseconds / 1_000_000)
    }
}

struct SystemAlarm: ScheduledAlarm {
    let task: Scheduled<Void>
    func cancel() { task.cancel() }
}

/// A clock moved by hand, for tests: `advance(to:)` fires due alarms in time order, and `jump(to:)`
/// sets the time and notifies jump handlers, like an operator setting the system clock.
public final class ManualClock: ServerClock {
    private struct Pending {
        var id: Int
        var instant: UnixMillis
        var action: @Sendable () -> Void
    }

    private struct State {
        var now: UnixMillis
        var nextID = 0
        var pending: [Pending] = []
        var jumpHandlers: [@Sendable () -> Void] = []
    }

    private let state: NIOLockedValueBox<State>

    public init(now: UnixMillis) {
        state = NIOLockedValueBox(State(now: now))
    }

    public func now() -> UnixMillis { state.withLockedValue { $0.now } }

    /// An alarm for an instant the clock has already reached fires at once, off the caller's
    /// thread, as the system clock's zero-delay timer does: a test that moved time on before the
    /// server armed its next alarm must not leave that alarm waiting for a move that never comes.
    public func schedule(at instant: UnixMillis, _ action: @escaping @Sendable () -> Void) -> any ScheduledAlarm {
        let (id, due) = state.withLockedValue { state in
            state.nextID += 1
            state.pending.append(Pending(id: state.nextID, instant: instant, action: action))
            return (state.nextID, instant <= state.now)
        }
        if due { DispatchQueue.global().async { self.fire(id: id) } }
        return ManualAlarm(clock: self, id: id)
    }

    /// Runs a due alarm unless it was cancelled or fired meanwhile.
    private func fire(id: Int) {
        let alarm: Pending? = state.withLockedValue { state in
            guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return nil }
            return state.pending.remove(at: index)
        }
        alarm?.action()
    }

    public func onJump(_ action: @escaping @Sendable () -> Void) {
        state.withLockedValue { $0.jumpHandlers.append(action) }
    }

    /// Moves time forward to `instant`, firing every alarm due by then, earliest first.
    public func advance(to instant: UnixMillis) {
        while true {
            let due: Pending? = state.withLockedValue { state in
                guard
                    let index = state.pending.indices.filter({ state.pending[$0].instant <= instant })
                        .min(by: { state.pending[$0].instant < state.pending[$1].instant })
                else {
                    state.now = max(state.now, instant)
                    return nil
                }
                let alarm = state.pending.remove(at: index)
                state.now = max(state.now, alarm.instant)
                return alarm
            }
            guard let due else { return }
            due.action()
        }
    }

    public func advance(by millis: Int64) { advance(to: now() + millis) }

    /// Moves time to `instant` first, then fires the alarms due: as a host whose timer woke late
    /// (or that was suspended past several alarms) finds the time already moved on.
    public func advanceLate(to instant: UnixMillis) {
        state.withLockedValue { $0.now = max($0.now, instant) }
        advance(to: instant)
    }

    /// Sets the clock to `instant` without firing alarms, then tells the jump handlers.
    public func jump(to instant: UnixMillis) {
        let handlers = state.withLockedValue { state in
            state.now = instant
            return state.jumpHandlers
        }
        for handler in handlers { handler() }
    }

    /// Instants of the alarms still armed, for tests that check what was scheduled.
    public var armedInstants: [UnixMillis] { state.withLockedValue { $0.pending.map(\.instant).sorted() } }

    fileprivate func cancel(id: Int) {
        state.withLockedValue { $0.pending.removeAll { $0.id == id } }
    }
}

struct ManualAlarm: ScheduledAlarm {
    let clock: ManualClock
    let id: Int
    func cancel() { clock.cancel(id: id) }
}
