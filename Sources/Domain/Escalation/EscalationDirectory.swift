import Foundation

/// A tenant's escalation policies and services (issue #56), each findable by id or by name
/// (case- and diacritic-insensitive). Part of `RosterState`, so it is stored, replicated and
/// cached with every other record.
public struct EscalationDirectory: Sendable, Hashable {
    public private(set) var policies: [String: EscalationPolicy] = [:]
    public private(set) var services: [String: PagingService] = [:]
    private var policyIDsByName: [String: String] = [:]
    private var serviceIDsByName: [String: String] = [:]

    /// What one tenant may keep (docs/ESCALATION.md).
    public static let maxPolicies = 1_000
    public static let maxServices = 1_000

    public init(policies: [EscalationPolicy] = [], services: [PagingService] = []) {
        for policy in policies { setPolicy(policy) }
        for service in services { setService(service) }
    }

    public func policy(idOrName: String) -> EscalationPolicy? {
        policies[idOrName] ?? policyIDsByName[TextFolding.fold(idOrName)].flatMap { policies[$0] }
    }

    public func service(idOrName: String) -> PagingService? {
        services[idOrName] ?? serviceIDsByName[TextFolding.fold(idOrName)].flatMap { services[$0] }
    }

    /// Policies by name, then services by name: how lists and exports show them.
    public var sortedPolicies: [EscalationPolicy] { policies.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) } }
    public var sortedServices: [PagingService] { services.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) } }

    /// The services that page through a policy, by name.
    public func services(using policyID: String) -> [PagingService] {
        sortedServices.filter { $0.policyID == policyID }
    }

    /// The policies whose steps name the target directly, by name, each with its first step
    /// naming it (1-based): what a deletion of the target is refused with.
    public func policies(naming target: EscalationStep.Target) -> [(policy: EscalationPolicy, step: Int)] {
        sortedPolicies.compactMap { policy in
            policy.steps.firstIndex { $0.targets.contains(target) }.map { (policy, $0 + 1) }
        }
    }

    mutating func setPolicy(_ policy: EscalationPolicy) {
        if let previous = policies[policy.id] { policyIDsByName[TextFolding.fold(previous.name)] = nil }
        policies[policy.id] = policy
        policyIDsByName[TextFolding.fold(policy.name)] = policy.id
    }

    mutating func deletePolicy(_ id: String) {
        if let previous = policies.removeValue(forKey: id) { policyIDsByName[TextFolding.fold(previous.name)] = nil }
    }

    mutating func setService(_ service: PagingService) {
        if let previous = services[service.id] { serviceIDsByName[TextFolding.fold(previous.name)] = nil }
        services[service.id] = service
        serviceIDsByName[TextFolding.fold(service.name)] = service.id
    }

    mutating func deleteService(_ id: String) {
        if let previous = services.removeValue(forKey: id) { serviceIDsByName[TextFolding.fold(previous.name)] = nil }
    }
}
