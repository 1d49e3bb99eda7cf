import RosterProtocol

extension RosterClient {
    /// An hours or schedule-quality report (docs/REPORTS.md), computed by the server from its
    /// duty record and plan. Admin tokens; a token bound to a person gets its own hours.
    public func report(_ request: Roster_V1_GetReportRequest) async throws -> Roster_V1_ReportResponse {
        guard case .report(let answer) = try await self.request(.getReport(request)) else {
            throw RosterClientError.protocolViolation("expected Report")
        }
        return answer
    }
}
