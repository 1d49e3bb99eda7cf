import Foundation
import NIOConcurrencyHelpers
import RosterDomain

/// One request to an identity provider, and its answer.
public struct ProviderRequest: Sendable {
    public var url: URL
    /// "GET" or "POST".
    public var method: String
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The largest answer read; a longer one fails the request.
    public var maxBytes: Int

    public init(url: URL, method: String = "GET", headers: [(String, String)] = [], body: [UInt8] = [], maxBytes: Int) {
        (self.url, self.method, self.headers, self.body, self.maxBytes) = (url, method, headers, body, maxBytes)
    }
}

public struct ProviderResponse: Sendable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) { (self.status, self.body) = (status, body) }
}

/// How the server reaches identity providers: with a deadline, a cap on the answer, no redirects,
/// and the webhook address policy (the server's outbound HTTP client implements it, in
/// RosterNotifications). Throws `IdentityError` with words for an admin.
public protocol ProviderTransport: Sendable {
    func send(_ request: ProviderRequest) async throws(IdentityError) -> ProviderResponse
}

/// The providers' discovery documents and signing keys, fetched on first use and kept: a
/// document for `metadataLifetime`, keys until a token names a key not held (the provider
/// rotated), then fetched again at most once per `keyRefetchInterval` (10 s) per issuer, so a stream of
/// forged `kid`s cannot make the server hammer the provider. At most `maxProviders` issuers are
/// kept (the least recently used is dropped).
public final class ProviderDirectory: Sendable {
    public static let metadataLifetime: UnixMillis = 3_600_000
    public static let keyRefetchInterval: UnixMillis = 10_000
    public static let maxProviders = 1_000

    private struct Entry {
        var metadata: ProviderMetadata
        var metadataFetchedAt: UnixMillis
        var keys: JSONWebKeySet?
        var keysFetchedAt: UnixMillis = 0
        var lastUsed: UnixMillis
    }

    public let transport: any ProviderTransport
    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    public init(transport: any ProviderTransport) { self.transport = transport }

    /// The issuer's discovery document, fetched when not held or older than `metadataLifetime`
    /// (`fresh`: fetched now whatever is held, as when an admin sets sign-in up).
    public func metadata(issuer: String, now: UnixMillis, fresh: Bool = false) async throws(IdentityError)
        -> ProviderMetadata
    {
        if !fresh, let held = entry(issuer, now: now), now - held.metadataFetchedAt < Self.metadataLifetime {
            return held.metadata
        }
        guard let url = ProviderMetadata.discoveryURL(issuer: issuer) else {
            throw IdentityError("the issuer \(issuer) is not a URL")
        }
        let answer = try await transport.send(ProviderRequest(url: url, maxBytes: ProviderMetadata.maxBytes))
        guard answer.status == 200 else {
            throw IdentityError(
                "the provider's discovery document (\(url.absoluteString)) answered HTTP \(answer.status)")
        }
        let metadata = try ProviderMetadata.parse(answer.body, expectedIssuer: issuer)
        entries.withLockedValue { entries in
            if var held = entries[issuer] {
                if held.metadata.jwksURI != metadata.jwksURI { held.keys = nil }
                (held.metadata, held.metadataFetchedAt, held.lastUsed) = (metadata, now, now)
                entries[issuer] = held
            } else {
                if entries.count >= Self.maxProviders,
                    let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })
                {
                    entries.removeValue(forKey: oldest.key)
                }
                entries[issuer] = Entry(metadata: metadata, metadataFetchedAt: now, lastUsed: now)
            }
        }
        return metadata
    }

    /// The issuer's keys: those held, or fetched when none are held, when `refresh` asks and
    /// the last fetch is at least `keyRefetchInterval` old, or when `fresh` asks (an admin
    /// setting sign-in up). `refreshed` says whether they were fetched by this call.
    public func keys(for metadata: ProviderMetadata, now: UnixMillis, refresh: Bool = false, fresh: Bool = false)
        async throws(IdentityError) -> (keys: JSONWebKeySet, refreshed: Bool)
    {
        let held = entry(metadata.issuer, now: now)
        if !fresh, let keys = held?.keys, !refresh || now - (held?.keysFetchedAt ?? 0) < Self.keyRefetchInterval {
            return (keys, false)
        }
        let answer = try await transport.send(ProviderRequest(url: metadata.jwksURI, maxBytes: JSONWebKeySet.maxBytes))
        guard answer.status == 200 else {
            throw IdentityError(
                "the provider's keys (\(metadata.jwksURI.absoluteString)) answered HTTP \(answer.status)")
        }
        let keys = try JSONWebKeySet.parse(answer.body)
        guard !keys.keys.isEmpty else {
            throw IdentityError(
                "the provider's key set holds no key Roster can verify with: \(keys.skipped.joined(separator: "; "))")
        }
        entries.withLockedValue { entries in
            guard var held = entries[metadata.issuer] else { return }
            (held.keys, held.keysFetchedAt) = (keys, now)
            entries[metadata.issuer] = held
        }
        return (keys, true)
    }

    /// `token` verified with the provider's keys; a token that names a key not held has the keys
    /// fetched again (within the interval) and is checked once more.
    public func verify(_ token: String, metadata: ProviderMetadata, expecting: IDTokenExpectation, now: UnixMillis)
        async throws(SignInRefusal) -> IDTokenClaims
    {
        let held: (keys: JSONWebKeySet, refreshed: Bool)
        do { held = try await keys(for: metadata, now: now) } catch { throw .providerUnavailable(error.message) }
        do {
            return try IDTokenVerifier.verify(token, keys: held.keys, expecting: expecting, now: now / 1000)
        } catch {
            guard error.mayBeNewKey, !held.refreshed else { throw .idToken(error) }
        }
        let fresh: JSONWebKeySet
        do { fresh = try await keys(for: metadata, now: now, refresh: true).keys } catch {
            throw .providerUnavailable(error.message)
        }
        do { return try IDTokenVerifier.verify(token, keys: fresh, expecting: expecting, now: now / 1000) } catch {
            throw .idToken(error)
        }
    }

    /// Forgets what is held for `issuer` (its settings changed or were removed).
    public func forget(_ issuer: String) { _ = entries.withLockedValue { $0.removeValue(forKey: issuer) } }

    private func entry(_ issuer: String, now: UnixMillis) -> Entry? {
        entries.withLockedValue { entries in
            entries[issuer]?.lastUsed = now
            return entries[issuer]
        }
    }
}
