import Foundation
import RosterDomain
import RosterProtocol
import RosterStore

extension AdminOperations {
    /// GetAudit: the tenant's matching entries, oldest first. Readers never get here.
    func audit(_ request: Roster_V1_GetAuditRequest, on tenant: TenantRuntime) async -> Result<
        Roster_V1_AuditResponse, WireError
    > {
        let limit = request.limit == 0 ? AuditLog.maxEntries : min(Int(request.limit), AuditLog.maxEntries)
        let state = tenant.view.state
        do {
            // A person is found by id or name as the directory has them now, else by the name
            // their records had in the log (someone removed since).
            var people: Set<String>?
            let person = request.person.trimmingCharacters(in: .whitespaces)
            if !person.isEmpty {
                if let employee = state.employee(idOrName: person) {
                    people = [employee.id]
                } else {
                    let named = try await store.auditEntries(
                        tenantID: tenant.id, since: 0, limit: Int.max,
                        matching: AuditLog.named(person)
                    ).entries
                    people = AuditLog.employeeIDs(named: person, in: named).union([person])
                }
            }
            let matching = AuditLog.matcher(request, people: people, state: state)
            let found = try await store.auditEntries(
                tenantID: tenant.id, since: request.sinceMs, limit: limit, matching: matching)
            // Newest first from the store: keep as many as fit one frame, leaving older ones out.
            var kept: [Roster_V1_AuditEntry] = [], bytes = 0, cut = false
            for entry in found.entries {
                let size = (try? entry.serializedBytes() as [UInt8])?.count ?? maxAnswerBytes
                guard bytes + size + 8 <= maxAnswerBytes else { cut = true; break }
                bytes += size + 8
                kept.append(entry)
            }
            return .success(
                .with {
                    $0.entries = kept.reversed()
                    $0.truncated = found.truncated || cut
                })
        } catch {
            return .failure(WireError(.unavailable, "the audit log could not be read: \(error)", retryable: true))
        }
    }
}
