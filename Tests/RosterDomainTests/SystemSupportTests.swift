import Foundation
import RosterDomain
import Testing
import RosterSystem

/// The one of each helper: HOST:PORT, XDG paths, durations, and the query rules the server,
/// the CLI's cache answers and the watch screen share.
@Suite(.timeLimit(.minutes(10))) struct SystemSupportTests {
    @Test func descriptorsOpenedWithoutCloseOnExecAreMarked() throws {
        // A socket made without SOCK_CLOEXEC, as SwiftNIO makes them.
        let descriptors = (0..<8).map { _ in socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) }
        defer { for fd in descriptors { close(fd) } }
        #expect(descriptors.allSatisfy { $0 >= 3 && fcntl($0, F_GETFD) & FD_CLOEXEC == 0 })
        markDescriptorsCloseOnExec()
        for fd in descriptors { #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(fd)") }
    }

    @Test func hostPortParsesWhatPeopleWrite() {
        #expect(HostPort(parsing: "roster.example.com:7400") == HostPort(host: "roster.example.com", port: 7400))
        #expect(HostPort(parsing: "[::1]:7400") == HostPort(host: "::1", port: 7400))
        #expect(HostPort(parsing: "[::1]:7400")?.description == "[::1]:7400")
        #expect(HostPort(parsing: ":7400", defaultHost: "0.0.0.0") == HostPort(host: "0.0.0.0", port: 7400))
        #expect(HostPort(parsing: "127.0.0.1:0", allowingPortZero: true)?.port == 0)
        for bad in ["rosterhost", "host:0", "host:70000", "http://host:7400", ":7400", "::1:7400", "host:port"] {
            #expect(HostPort(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func xdgPathsFollowTheEnvironment() {
        #expect(XDGPaths.config("config", environment: ["XDG_CONFIG_HOME": "/x"]).path == "/x/roster/config")
        #expect(XDGPaths.cache(environment: ["XDG_CACHE_HOME": "/y"]).path == "/y/roster")
        #expect(
            XDGPaths.cache(environment: ["XDG_CACHE_HOME": ""]).path.hasSuffix("/.cache/roster"), "empty means unset")
    }

    @Test func durationsReadOneWay() {
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("10s") == .seconds(10))
        #expect(DurationText.parse("90") == nil, "a bare number has no unit: refused, not seconds")
        #expect(DurationText.parse("2m") == .seconds(120) && DurationText.parse("30d") == .seconds(30 * 86_400))
        for bad in ["", "soon", "-5s", "0s", "5y", "1.5s"] { #expect(DurationText.parse(bad) == nil, "\(bad)") }
    }

    @Test func shiftWindowsAreHalfOpen() {
        let state = RosterState(
            tenant: Tenant(id: "t", name: "T"),
            employees: [Employee(id: "a", firstName: "Ada", lastName: "Lovelace")],
            shifts: [
                Shift(id: "s1", employeeID: "a", start: 0, end: 10),
                Shift(id: "s2", employeeID: "a", start: 10, end: 20),
            ])
        #expect(state.shifts(from: 10, to: 20).map(\.id) == ["s2"], "a shift ending at `from` is not in the window")
        #expect(state.shifts(from: nil, to: 10).map(\.id) == ["s1"])
        #expect(state.upcomingShifts(of: "a", now: 9).map(\.id) == ["s1", "s2"])
        #expect(state.upcomingShifts(now: 10).map(\.id) == ["s2"])
    }
}
