import Foundation
import RosterDomain
import RosterIdentity
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterTLS

/// People's push subscriptions and settings, and the tenant's VAPID key (docs/PUSH.md). A
/// subscription is a webhook row bound to its person, so the outbox delivers to it with the
/// webhooks' durability and order; only its person sees or removes it.
extension Notifier {
    /// Subscriptions one person may hold (phones, browsers, topics).
    static let maxPushSubscriptionsPerPerson = 10

    /// The tenant's VAPID key, made and stored (sealed) if it has none. Nodes starting at once
    /// agree: the second insert is refused and the first one's key is read.
    func pushKey(tenantID: String) async throws -> PrivateKey? {
        for attempt in 0..<2 {
            if let record = try await store.rules(PushKeyRecord.self, tenantID: tenantID).first,
                let pem = sealer.open(record.sealedKey)
            {
                return try? PrivateKey(pem: pem)
            } else if try await !store.rules(PushKeyRecord.self, tenantID: tenantID).isEmpty {
                // Sealed under another key: `unreadableSecrets` reports it; nothing is sent.
                logger.warning("tenant \(tenantID)'s VAPID key was sealed with another secrets key")
                return nil
            }
            guard attempt == 0 else { break }
            let made = try PrivateKey.generate()
            do {
                try await store.insertRule(
                    PushKeyRecord(sealedKey: sealer.seal(made.pem), created: clock.now()), tenantID: tenantID)
                return made
            } catch {
                continue  // another node made one first: read it
            }
        }
        return nil
    }

    package func push(_ request: Roster_V1_PushRequest, tenant: TenantRuntime, actor: Caller) async
        -> Result<RosterMessage, WireError>
    {
        do {
            var answer = Roster_V1_PushResponse()
            switch request.action {
            case .add(let spec):
                let person = try changer(actor)
                answer.subscriptionID = try await addPushSubscription(spec, person: person, tenant: tenant)
            case .remove(let id):
                let person = try changer(actor)
                guard
                    let found = try await subscriptions(tenant.id, of: person).first(where: { $0.id == id })
                else {
                    return .failure(WireError(.notFound, "you have no push subscription \(id)"))
                }
                _ = try await store.removeWebhook(tenantID: tenant.id, id: found.id)
            case .setSettings(let wire):
                let person = try changer(actor)
                let settings = try Self.pushSettings(wire, person: person)
                var write = OutboxWrite()
                write.settings.remove(PushSettings.self, id: person)
                write.settings.insertedRules = [settings]
                try await store.writeOutbox(tenantID: tenant.id, write)
                try await reload(tenantID: tenant.id)
            case .rotateKey:
                guard actor.isAdmin else {
                    return .failure(WireError(.permissionDenied, "rotating the VAPID key is for admins"))
                }
                var write = OutboxWrite()
                write.settings.remove(PushKeyRecord.self, id: PushKeyRecord.currentID)
                write.settings.insertedRules = [
                    PushKeyRecord(sealedKey: sealer.seal(try PrivateKey.generate().pem), created: clock.now())
                ]
                try await store.writeOutbox(tenantID: tenant.id, write)
                try await reload(tenantID: tenant.id)
            case .list, nil:
                break
            }
            // Every answer says where the person stands.
            if let person = actor.employeeID {
                answer.subscriptions = try await subscriptions(tenant.id, of: person).map(Self.wire)
                answer.settings = Self.wire(pushSettings(tenant.id, person: person))
            }
            if actor.isAdmin {
                let all = try await subscriptions(tenant.id)
                answer.peopleSubscribed = Int32(Set(all.map(\.personID)).count)
                answer.webPushSubscriptions = Int32(all.filter { $0.format == .webPush }.count)
                answer.ntfySubscriptions = Int32(all.filter { $0.format == .ntfy }.count)
            }
            if let key = tenantPushKey(tenant.id) { answer.vapidPublicKey = Base64URL.encode(key.publicPoint) }
            return .success(.pushResult(answer))
        } catch let error as WireError {
            return .failure(error)
        } catch {
            logger.warning("push request failed: \(error)")
            return .failure(WireError(.unavailable, "the store could not be reached", retryable: true))
        }
    }

    /// The person a change is for: a token bound to a person that may act.
    private func changer(_ actor: Caller) throws(WireError) -> String {
        guard let person = actor.employeeID else {
            throw WireError(
                .permissionDenied,
                "push subscriptions are a person's own: use a token bound to a person (roster-client login)")
        }
        if actor.limits?.readOnly == true {
            throw WireError(.permissionDenied, "this token only reads")
        }
        return person
    }

    private func addPushSubscription(_ spec: Roster_V1_PushSubscriptionSpec, person: String, tenant: TenantRuntime)
        async throws -> String
    {
        let format: WebhookFormat
        switch spec.format.lowercased() {
        case "", "web-push": format = .webPush
        case "ntfy": format = .ntfy
        default: throw WireError(.invalidArgument, "format is web-push or ntfy (got \(spec.format.prefix(40)))")
        }
        if let problem = WebhookClient.validate(spec.endpoint, addresses: dispatcher.addresses) {
            throw WireError(.invalidArgument, "the endpoint \(problem)")
        }
        if let problem = TextLimits.lineProblem(spec.label, limit: 100) {
            throw WireError(.invalidArgument, "label \(problem)")
        }
        var secret = "", key = ""
        if format == .webPush {
            guard let p256dh = Base64URL.decode(spec.p256Dh), let auth = Base64URL.decode(spec.auth) else {
                throw WireError(.invalidArgument, "p256dh and auth are base64url, as PushManager gives them")
            }
            // A key that cannot be encrypted to is refused now, not at the first handoff.
            do {
                _ = try WebPushMessage.encrypt([], p256dh: p256dh, auth: auth)
            } catch {
                throw WireError(
                    .invalidArgument, "p256dh must be a 65-byte P-256 public key and auth 16 bytes (RFC 8291)")
            }
            (secret, key) = (spec.auth, spec.p256Dh)
        }
        let mine = try await subscriptions(tenant.id, of: person)
        let replaced = mine.filter { $0.url == spec.endpoint }
        guard mine.count - replaced.count < Self.maxPushSubscriptionsPerPerson else {
            throw WireError(
                .resourceExhausted,
                "you have \(Self.maxPushSubscriptionsPerPerson) push subscriptions; remove one first")
        }
        let subscription = StoredWebhook(
            id: IdentifierFactory.make("psh"), tenantID: tenant.id, url: spec.endpoint, secret: sealer.seal(secret),
            events: [], schedules: [], created: clock.now(), format: format, personID: person, pushKey: key,
            label: spec.label)
        // The same endpoint again (a browser subscribing anew): replaced in one transaction.
        var write = OutboxWrite()
        write.settings.removedWebhooks = replaced.map(\.id)
        write.settings.insertedWebhooks = [subscription]
        try await store.writeOutbox(tenantID: tenant.id, write)
        // Nothing else of the tenant's settings changed: no reload (it reads every webhook), and
        // a planning round only for a tenant that used no notifications yet.
        if activate(tenant.id) { await plan(tenant) }
        return subscription.id
    }

    func subscriptions(_ tenantID: String) async throws -> [StoredWebhook] {
        try await store.webhooks(tenantID: tenantID, now: clock.now()).filter { $0.format.isPush }
    }

    func subscriptions(_ tenantID: String, of person: String) async throws -> [StoredWebhook] {
        try await store.pushSubscriptions(tenantID: tenantID, personID: person, now: clock.now())
    }

    static func pushSettings(_ wire: Roster_V1_PushSettings, person: String) throws(WireError) -> PushSettings {
        var kinds: Set<PushKind> = []
        for name in wire.kinds {
            guard let kind = PushKind(rawValue: name) else {
                let known = PushKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw WireError(.invalidArgument, "unknown kind \(name.prefix(40)) (known: \(known))")
            }
            kinds.insert(kind)
        }
        var settings = PushSettings(id: person, kinds: kinds)
        if wire.quiet {
            let minutes = 0...1439
            guard minutes.contains(Int(wire.quietStartMinute)), minutes.contains(Int(wire.quietEndMinute)),
                wire.quietStartMinute != wire.quietEndMinute
            else {
                throw WireError(.invalidArgument, "quiet hours start and end are different times of day, 00:00–23:59")
            }
            let zone = wire.quietZone.isEmpty ? "UTC" : wire.quietZone
            guard WallClock(zone: zone) != nil else {
                throw WireError(.invalidArgument, "unknown zone \(zone.prefix(60))")
            }
            settings.quietHours = .init(
                startMinute: Int(wire.quietStartMinute), endMinute: Int(wire.quietEndMinute), zone: zone)
        }
        return settings
    }

    static func wire(_ settings: PushSettings) -> Roster_V1_PushSettings {
        .with {
            $0.kinds = PushKind.allCases.filter(settings.kinds.contains).map(\.rawValue)
            if let quiet = settings.quietHours {
                $0.quiet = true
                $0.quietStartMinute = Int32(quiet.startMinute)
                $0.quietEndMinute = Int32(quiet.endMinute)
                $0.quietZone = quiet.zone
            }
        }
    }

    static func wire(_ subscription: StoredWebhook) -> Roster_V1_PushSubscription {
        .with {
            $0.id = subscription.id
            $0.format = subscription.format.rawValue
            $0.origin = VAPID.origin(of: subscription.url) ?? ""
            $0.label = subscription.label
            $0.createdMs = subscription.created
            $0.failingSinceMs = subscription.failingSince ?? 0
            $0.disabledReason = subscription.disabledReason
        }
    }
}
