import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// systemd's readiness protocol (sd_notify(3)) for `Type=notify` units: one datagram to the
/// socket named by NOTIFY_SOCKET, such as "READY=1" once the listener accepts, "RELOADING=1"
/// while SIGHUP reloads and "STOPPING=1" when shutting down. Without NOTIFY_SOCKET (not under
/// systemd) every call does nothing. A send that fails is ignored, as sd_notify's callers do.
public enum SystemdNotify {
    public static func send(_ state: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard var path = environment["NOTIFY_SOCKET"], !path.isEmpty else { return }
        // "@name" is an abstract socket: its address starts with a NUL byte.
        if path.hasPrefix("@") { path = "\0" + path.dropFirst() }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { destination in
            destination.copyBytes(from: bytes)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        var message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                // MSG_DONTWAIT: a datagram to a local socket; never wait on a stuck receiver.
                message.withUnsafeMutableBytes {
                    sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT), socketAddress, length)
                }
            }
        }
    }

    /// CLOCK_MONOTONIC in microseconds, which systemd wants with RELOADING=1.
    public static var monotonicMicroseconds: UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
