import NIOCore

/// Checks every connection of one event loop for liveness, every half ping interval, from one
/// timer: a timer per connection would cost each idle subscriber a scheduled task (about 350
/// bytes of resident memory, measured with roster-bench). Touched only on its loop.
// @unchecked: confined to `loop` (every mutation runs there); shared only to be found by loop.
final class LivenessSweeper: @unchecked Sendable {
    let loop: any EventLoop
    private let intervalMillis: Int64
    private var connections: [ObjectIdentifier: ConnectionHandler] = [:]
    private var task: RepeatedTask?

    init(loop: any EventLoop, intervalMillis: Int64) {
        self.loop = loop
        self.intervalMillis = intervalMillis
    }

    func start() {
        let half = TimeAmount.milliseconds(max(1, intervalMillis / 2))
        task = loop.scheduleRepeatedTask(initialDelay: half, delay: half) { [self] _ in sweep() }
    }

    func stop() {
        task?.cancel()
        task = nil
    }

    func add(_ connection: ConnectionHandler) {
        loop.preconditionInEventLoop()
        connections[ObjectIdentifier(connection)] = connection
    }

    func remove(_ connection: ConnectionHandler) {
        loop.preconditionInEventLoop()
        connections[ObjectIdentifier(connection)] = nil
    }

    private func sweep() {
        let now = NIODeadline.now()
        // checkLiveness may close a connection, which removes it: iterate over a copy.
        for connection in Array(connections.values) {
            connection.checkLiveness(now: now)
        }
    }
}
