import RosterDomain
@testable import RosterServer
@testable import RosterServerCore
import RosterStore
import Testing

/// The running server's mirror of the store's tokens, refreshed every few seconds while this
/// server also mints and revokes: a copy of the store read before a change of this server's own
/// must not undo it.
@Suite(.timeLimit(.minutes(10))) struct TokenRegistryTests {
    let now: UnixMillis = 1_800_000_000_000

    func token(_ label: String) -> StoredToken {
        AccessToken.issue(tenantID: "t", role: .calendar, label: label, now: now, scope: "schedule:s", mintedBy: "m")
            .stored
    }

    @Test func aTokenMintedWhileTheStoreIsReadIsNeitherLostNorRevoked() {
        let first = token("first")
        let registry = TokenRegistry([first])
        let stamp = registry.stamp  // a refresh starts reading the store: it holds `first` only
        let minted = token("minted meanwhile")
        registry.insert(minted)
        let revoked = registry.replace(with: [first], loadedAfter: stamp)
        #expect(revoked.isEmpty, "a token minted during the read is not taken for revoked")
        #expect(registry.token(id: minted.id) != nil, "nor dropped until the next refresh")
        #expect(registry.liveCalendarTokens(tenant: "t", mintedBy: "m", now: now).minter == 2)

        // A later copy is read after the mint: from then on the store decides, so a token
        // deleted there (`roster-server token ...`) goes, and is reported.
        let later = registry.stamp
        #expect(registry.replace(with: [first, minted], loadedAfter: later).isEmpty)
        #expect(registry.replace(with: [first], loadedAfter: registry.stamp) == [minted.id])
        #expect(registry.token(id: minted.id) == nil)
    }

    @Test func aRevocationMadeHereDuringTheReadStays() {
        let link = token("link")
        let registry = TokenRegistry([link])
        let stamp = registry.stamp
        var revokedCopy = link
        revokedCopy.revokedAt = now
        registry.insert(revokedCopy)
        _ = registry.replace(with: [link], loadedAfter: stamp)  // read before the revocation was stored
        #expect(registry.isRevoked(link.id))
    }

    /// A token revoked here (a logout, a deactivated person, a personal token's holder) is
    /// reported once by the next refresh, whose copy agrees with the mirror, so its live
    /// connections are closed as for a revocation made with `roster-server token revoke`.
    @Test func aRevocationMadeHereIsReportedOnceToCloseItsConnections() {
        let login = token("login")
        let registry = TokenRegistry([login])
        var revokedCopy = login
        revokedCopy.revokedAt = now
        registry.insert(revokedCopy)
        #expect(registry.replace(with: [revokedCopy], loadedAfter: registry.stamp) == [login.id])
        #expect(registry.replace(with: [revokedCopy], loadedAfter: registry.stamp).isEmpty, "once")
        registry.insert(revokedCopy)
        #expect(registry.replace(with: [revokedCopy], loadedAfter: registry.stamp).isEmpty, "revoked twice: no news")
    }
}
