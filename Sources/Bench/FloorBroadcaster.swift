import Foundation
import NIOCore
import RosterProtocol
#if canImport(Glibc)
    import Glibc
#endif

/// The floor: the least a broadcaster can do. One thread, poll(2), and on each trigger a plain
/// write() of the same bytes to every subscribed socket. It speaks just enough of the protocol
/// (Welcome, Synced, MutationResult, Pong) for the benchmark's clients, so both runs share one
/// harness and differ only in the server.
package enum FloorBroadcaster {
    package static func run(port: Int, pushFrame: [UInt8]) throws -> Never {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withLoopbackAddress(port: port) { address, length in bind(listener, address, length) }.result
        guard bound == 0, listen(listener, 4096) == 0 else { throw BenchError("floor: cannot listen on \(port)") }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)

        let welcome = RosterMessage.welcome(
            .with {
                $0.version = 1
                $0.limits = .with {
                    $0.maxFrameBytes = 1 << 20; $0.pingIntervalMs = 3_600_000
                }
            })
        var pending: [Int32: [UInt8]] = [:]
        var subscribers: [Int32] = []
        var readBuffer = [UInt8](repeating: 0, count: 65536)

        func send(_ fd: Int32, _ message: RosterMessage, _ requestID: UInt32) {
            let bytes = Array(message.frame(requestID: requestID).encoded().readableBytesView)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }

        var watched = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        while true {
            _ = poll(&watched, nfds_t(watched.count), -1)
            var changed = false
            for index in watched.indices where watched[index].revents != 0 {
                let fd = watched[index].fd
                if fd == listener {
                    while true {
                        let client = accept(listener, nil, nil)
                        if client < 0 { break }
                        var one: Int32 = 1
                        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                        pending[client] = []
                        changed = true
                    }
                    continue
                }
                let count = read(fd, &readBuffer, readBuffer.count)
                if count <= 0 {
                    close(fd)
                    pending[fd] = nil
                    subscribers.removeAll { $0 == fd }
                    changed = true
                    continue
                }
                pending[fd, default: []] += readBuffer[0..<count]
                var buffer = ByteBuffer(bytes: pending[fd]!)
                var decoder = FrameDecoder(maxFrameLength: 1 << 20)
                while let frame = try? decoder.decodeFrame(from: &buffer) {
                    switch MessageType(rawValue: frame.rawType) {
                    case .hello: send(fd, welcome, frame.requestID)
                    case .subscribe:
                        subscribers.append(fd)
                        send(fd, .synced(.with { $0.subscriptionID = 1 }), frame.requestID)
                    case .ping: send(fd, .pong(.init()), frame.requestID)
                    case .upsertEmployee, .addShift, .deleteShift, .setMotd:
                        // The trigger: acknowledge, then one write() per subscriber.
                        send(fd, .mutationResult(.init()), frame.requestID)
                        broadcast(pushFrame, to: subscribers)
                    default: break
                    }
                }
                pending[fd] = Array(buffer.readableBytesView)
            }
            if changed {
                watched =
                    [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
                    + pending.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            }
        }
    }

    /// One write() of the frame per subscriber. Not inlined: `roster-bench fanout --callgrind`
    /// counts the instructions in here by its name.
    @inline(never)
    static func broadcast(_ frame: [UInt8], to subscribers: [Int32]) {
        frame.withUnsafeBytes { bytes in
            for subscriber in subscribers { _ = write(subscriber, bytes.baseAddress, bytes.count) }
        }
    }
}
