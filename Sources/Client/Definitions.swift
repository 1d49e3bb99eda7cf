import RosterProtocol

/// Schedules as code (docs/AS-CODE.md, admin tokens): a tenant definition planned against the
/// tenant, or applied as one revision.
extension RosterClient {
    /// The plan of `request` (with `planOnly`), or the revision it committed.
    /// Plans a definition, or applies it: an apply whose connection is lost after it was sent is
    /// `outcomeUnknown` (it may have been committed; plan again to see), as any change is.
    public func applyDefinition(_ request: Roster_V1_ApplyDefinitionRequest) async throws -> Roster_V1_DefinitionPlan {
        let message = RosterMessage.applyDefinition(request)
        let answer = request.planOnly ? try await self.request(message) : try await sendChange(message)
        guard case .definitionPlan(let plan) = answer else {
            throw RosterClientError.protocolViolation("the answer to ApplyDefinition is not a DefinitionPlan")
        }
        return plan
    }
}
