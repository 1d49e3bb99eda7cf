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
        #expect(loopback(port: listener.port) { connect(client, $0, $1) } == 0)
        let held = try RefusingPort(holding: own)
        defer { withExtendedLifetime(held) {} }
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        #expect(loopback(port: own) { connect(probe, $0, $1) } != 0 && errno == ECONNREFUSED)
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
        #expect(loopback(port: port) { bind(other, $0, $1) } != 0)
    }
}

/// Plain loopback sockets for the tests above.
private enum Socket {
    /// Binds `fd` to 127.0.0.1:`port` (0: any) and returns the port it has.
    static func bound(_ fd: Int32, port: Int) throws -> Int {
        guard loopback(port: port, { bind(fd, $0, $1) }) == 0 else { throw POSIXError(.EADDRINUSE) }
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
