import Foundation
import RosterDomain
import RosterProtocol
import RosterStore

/// Escalation policies and services (schema v12), each kept whole as its message's JSON.
extension PostgresRosterStore {
    static func escalationRecords(tenantID: String, connection: PostgresConnection) async throws
        -> (policies: [EscalationPolicy], services: [PagingService])
    {
        var policies: [EscalationPolicy] = []
        var services: [PagingService] = []
        for row in try await connection.query(
            "SELECT kind, definition FROM escalation_record WHERE tenant_id = \(tenantID) ORDER BY id"
        ).decode((String, String).self) {
            switch row.0 {
            case "policy": policies.append(EscalationPolicy(try Roster_V1_EscalationPolicy(jsonString: row.1)))
            default: services.append(PagingService(try Roster_V1_Service(jsonString: row.1)))
            }
        }
        return (policies, services)
    }

    static func applyEscalation(_ change: RosterChange, tenantID: String, connection: PostgresConnection)
        async throws
    {
        func upsert(kind: String, id: String, json: String) async throws {
            try await connection.query(
                """
                INSERT INTO escalation_record (tenant_id, kind, id, definition) VALUES (\(tenantID), \(kind), \(id), \(json))
                ON CONFLICT (tenant_id, kind, id) DO UPDATE SET definition = excluded.definition
                """)
        }
        switch change {
        case .escalationPolicySet(let policy):
            try await upsert(kind: "policy", id: policy.id, json: try Roster_V1_EscalationPolicy(policy).jsonString())
        case .escalationPolicyDeleted(let id):
            try await connection.query(
                "DELETE FROM escalation_record WHERE tenant_id = \(tenantID) AND kind = 'policy' AND id = \(id)")
        case .serviceSet(let service):
            try await upsert(kind: "service", id: service.id, json: try Roster_V1_Service(service).jsonString())
        case .serviceDeleted(let id):
            try await connection.query(
                "DELETE FROM escalation_record WHERE tenant_id = \(tenantID) AND kind = 'service' AND id = \(id)")
        default: break
        }
    }
}
