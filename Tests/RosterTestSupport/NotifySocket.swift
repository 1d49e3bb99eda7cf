import Foundation
import NIOConcurrencyHelpers

/// A unix datagram socket standing in for systemd's NOTIFY_SOCKET: collects what a server
/// child sends with sd_notify ("READY=1", "RELOADING=1...", "STOPPING=1"). Read on a thread of
/// its own with plain recv(2): sd_notify's senders are unnamed sockets, whose empty address
/// NIO's datagram channel does not take.
public final class NotifySocket: Sendable {
    public let path: String
    private let descriptor: Int32
    private let received = NIOLockedValueBox<[String]>([])
    private let closed = NIOLockedValueBox(false)

    public init(in directory: URL) throws {
        path = directory.appendingPathComponent("notify.sock").path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw TestFailure("bind \(path): errno \(errno)") }
        // recv wakes up every 100 ms to notice `close`.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        Thread.detachNewThread { [descriptor, received, closed] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !closed.withLockedValue({ $0 }) {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    received.withLockedValue { $0.append(String(decoding: buffer[..<count], as: UTF8.self)) }
                }
            }
            Glibc.close(descriptor)
        }
    }

    /// Every datagram so far, in order.
    public var messages: [String] { received.withLockedValue { $0 } }

    /// Waits until `count` datagrams satisfy `predicate`; false after `timeout`.
    public func waitFor(_ count: Int = 1, timeout: Duration = .seconds(15), _ predicate: (String) -> Bool) async -> Bool
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if messages.filter(predicate).count >= count { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return messages.filter(predicate).count >= count
    }

    public func close() {
        closed.withLockedValue { $0 = true }
        try? FileManager.default.removeItem(atPath: path)
    }
}
