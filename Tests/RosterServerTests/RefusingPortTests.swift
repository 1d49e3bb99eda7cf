import Foundation
import RosterTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The port a stopped server's test holds so that nothing else answers there: held when it is
/// free, given up (still refusing) when another process's connection has it as its own end, and
/// an error when something listens on it.
@Suite(.timeLimit(.minutes(5))) struct RefusingPortTests {
    @Test func aPortUsedOnlyAsAConnectionsOwnEndStillRefuses() throws {
        let listener = try Socket.listening(port: 0)
        defer { close(listener.fd) }
        // A connection whose own end is a port picked here, as connect would pick a freed one.
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let own = try Socket.bound(client, port: 0)
        #expect(Socket.loopback(client, port: listener.port, connect) == 0)
        let held = try RefusingPort(holding: own)
        defer { withExtendedLifetime(held) {} }
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        #expect(Socket.loopback(probe, port: own, connect) != 0 && errno == ECONNREFUSED)
    }

    @Test func aPortSomeoneListensOnIsAnError() throws {
        let listener = try Socket.listening(port: 0)
        defer { close(listener.fd) }
        #expect(throws: (any Error).self) { _ = try RefusingPort(holding: listener.port) }
    }

    @Test func aFreePortIsHeld() throws {
        let listener = try Socket.listening(port: 0)
        let port = listener.port
        close(listener.fd)
        let held = try RefusingPort(holding: port)
        defer { withExtendedLifetime(held) {} }
        // Held: a listener of another test cannot take it meanwhile.
        let other = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(other) }
        #expect(Socket.loopback(other, port: port, bind) != 0)
    }
}

/// Plain loopback sockets for the tests above.
private enum Socket {
    static func loopback(
        _ fd: Int32, port: Int, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                call(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// Binds `fd` to 127.0.0.1:`port` (0: any) and returns the port it has.
    static func bound(_ fd: Int32, port: Int) throws -> Int {
        guard loopback(fd, port: port, bind) == 0 else { throw POSIXError(.EADDRINUSE) }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func listening(port: Int) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let bound = try bound(fd, port: port)
        guard listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        return (fd, bound)
    }
}
