import Foundation
import NIOHTTP1
import RosterIdentity

/// How the server reaches identity providers (docs/SSO.md): the webhook client, so a provider
/// is reached only at the URLs an admin configured and only at addresses webhooks may reach
/// (the same policy, `--webhook-allow` included), with a deadline and a cap on every answer.
package struct IdentityProviderClient: ProviderTransport {
    /// For discovery, keys and the token request alike.
    static let timeout: Duration = .seconds(10)
    let client: WebhookClient

    package func send(_ request: ProviderRequest) async throws(IdentityError) -> ProviderResponse {
        do {
            let answer = try await client.post(
                url: request.url.absoluteString, method: request.method == "POST" ? .POST : .GET,
                headers: request.headers, body: Data(request.body), timeout: Self.timeout, maxBody: request.maxBytes)
            return ProviderResponse(status: answer.status, body: answer.body)
        } catch {
            throw IdentityError("\(request.url.absoluteString) could not be reached: \(error)")
        }
    }
}

extension Notifier {
    /// The identity providers' transport, on the webhook client of this notifier.
    package var identityTransport: IdentityProviderClient { IdentityProviderClient(client: dispatcher.client) }
}
