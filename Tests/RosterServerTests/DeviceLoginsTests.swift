import RosterDomain
import RosterServerCore
import Testing

/// `roster-client login`'s waiting logins: each code used once, polls paced, and the table
/// bounded per address and in all, with a hostile address beside a healthy one.
@Suite(.timeLimit(.minutes(10))) struct DeviceLoginsTests {
    @Test func aLoginIsDecidedOnceAndHandedOutOnce() throws {
        let logins = DeviceLogins()
        let (device, user) = try #require(logins.begin(tenantID: "demo", address: "10.0.0.1", now: 0))
        #expect(user.count == 8 && user.allSatisfy { "BCDFGHJKLMNPQRSTVWXZ".contains($0) })
        #expect(device.count == 43)
        #expect(logins.poll(deviceCode: device, now: 3_000) == .pending)
        #expect(logins.poll(deviceCode: device, now: 3_500) == .slowDown, "polled sooner than the interval")
        // Typed as shown, or in lower case without the dash.
        #expect(logins.tenant(userCode: DeviceLogins.shown(user), now: 4_000) == "demo")
        #expect(logins.tenant(userCode: user.lowercased(), now: 4_000) == "demo")
        let grant = LoginGrant(token: "rst_x_y", expiresAt: 9, refresh: "rsr_a_b", refreshExpiresAt: 10)
        #expect(logins.decide(userCode: user, .approved(grant), now: 5_000))
        #expect(!logins.decide(userCode: user, .denied, now: 5_001), "a code is decided once")
        #expect(logins.poll(deviceCode: device, now: 8_000) == .approved(grant))
        #expect(logins.poll(deviceCode: device, now: 11_000) == .expired, "and handed out once")
        #expect(logins.poll(deviceCode: "a guess", now: 11_000) == .expired)
    }

    @Test func aLoginExpiresAfterTenMinutes() throws {
        let logins = DeviceLogins()
        let (device, user) = try #require(logins.begin(tenantID: "demo", address: "10.0.0.1", now: 0))
        #expect(logins.tenant(userCode: user, now: DeviceLogins.lifetime) == nil)
        #expect(!logins.decide(userCode: user, .denied, now: DeviceLogins.lifetime))
        #expect(logins.poll(deviceCode: device, now: DeviceLogins.lifetime) == .expired)
    }

    @Test func oneAddressCannotFillTheTableForOthers() throws {
        let logins = DeviceLogins()
        for _ in 0..<DeviceLogins.maxPerAddress {
            #expect(logins.begin(tenantID: "demo", address: "203.0.113.9", now: 0) != nil)
        }
        #expect(logins.begin(tenantID: "demo", address: "203.0.113.9", now: 1) == nil, "the hostile address is capped")
        #expect(logins.begin(tenantID: "demo", address: "10.0.0.1", now: 1) != nil, "a healthy one still logs in")
        // In all: at the node's cap nobody's login is evicted, a new one is refused until some expire.
        var address = 0
        while logins.begin(tenantID: "demo", address: "198.51.100.\(address / 9)", now: 2) != nil { address += 1 }
        #expect(address + DeviceLogins.maxPerAddress + 1 == DeviceLogins.maxPending)
        #expect(logins.begin(tenantID: "demo", address: "10.9.9.9", now: DeviceLogins.lifetime + 2) != nil)
    }
}
