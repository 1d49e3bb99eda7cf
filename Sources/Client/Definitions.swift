import RosterProtocol

/// Schedules as code (docs/AS-CODE.md, admin tokens): a tenant definition planned against the
/// tenant, or applied as one revision.
extension RosterClient {
    /// The plan of `request` (with `planOnly`), or the revision it committed.
    public func applyDefinition(_ request: Roster_V1_ApplyDefinitionRequest) async throws -> Roster_V1_DefinitionPlan {
        guard case .definitionPlan(let plan) = try await self.request(.applyDefinition(request)) else {
            throw RosterClientError.protocolViolation("the answer to ApplyDefinition is not a DefinitionPlan")
        }
        return plan
    }
}
