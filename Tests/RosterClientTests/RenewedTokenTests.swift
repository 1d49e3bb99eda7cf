import Foundation
import NIOConcurrencyHelpers
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterTestSupport
import Testing

/// A client whose token is renewed (a `roster-client login`'s, docs/SSO.md): when the server
/// closes a live connection because its token expired, the client connects again with the next
/// token instead of ending as refused; a handshake refused outright still ends it.
@Suite(.timeLimit(.minutes(10))) struct RenewedTokenTests {
    @Test func aLiveConnectionWhoseTokenExpiresGoesOnWithTheRenewedToken() async throws {
        try await using(try await ServerHarness.start(now: t0) { $0.limits.tokenRefresh = .milliseconds(50) }) {
            harness in
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let expiring = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: .seconds(60), now: t0
            ).text
            let lasting = try await administration.createToken(tenant: "demo", role: .reader, expiresIn: nil).text
            #expect(await eventually(60) { (try? await harness.connect(token: lasting)) != nil })
            #expect(await eventually(60) { (try? await harness.connect(token: expiring)) != nil })

            let asked = NIOLockedValueBox(0)
            var configuration = fastReconnect(harness.port, cache: nil)
            configuration.token = expiring
            configuration.renewToken = {
                asked.withLockedValue { count in
                    count += 1
                    return count == 1 ? expiring : lasting
                }
            }
            try await using(RosterClient(configuration: configuration)) { client in
                let reader = UpdateReader(client)
                await client.start()
                try await reader.until(isSynced)

                harness.clock.advance(to: t0 + 61_000)
                let admin = try await harness.connect()
                try await admin.admin(.setMotd(.with { $0.motd = "after expiry" }))
                // Closed for the expired token (at the change, or sooner by the liveness sweep),
                // then resumed on the renewed one, the change included.
                #expect(await eventually(60) { await client.roster?.state.tenant.motd == "after expiry" })
                #expect(await client.state == .live, "not ended as refused")
                #expect(asked.withLockedValue { $0 } >= 2, "asked for a token again")
                await admin.close()
            }
        }
    }

    @Test func aRenewedTokenThatIsRefusedAtTheHandshakeEndsTheClient() async throws {
        try await using(try await ServerHarness.start(now: t0)) { harness in
            var configuration = fastReconnect(harness.port, cache: nil)
            configuration.token = "rst_nobody_" + String(repeating: "0", count: 64)
            configuration.renewToken = { "rst_nobody_" + String(repeating: "1", count: 64) }
            try await using(RosterClient(configuration: configuration)) { client in
                let reader = UpdateReader(client)
                await client.start()
                try await reader.until {
                    if case .refused(let error) = $0 { return error.code == .unauthenticated }
                    return false
                }
                #expect(await client.state == .offline)
            }
        }
    }
}
