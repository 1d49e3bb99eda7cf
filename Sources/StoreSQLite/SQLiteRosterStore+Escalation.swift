import Foundation
import GRDB
import RosterDomain
import RosterProtocol
import RosterStore

/// Escalation policies and services (schema v12), each kept whole as its message's JSON.
extension SQLiteRosterStore {
    static func escalationRecords(tenantID: String, db: Database) throws
        -> (policies: [EscalationPolicy], services: [PagingService])
    {
        var policies: [EscalationPolicy] = []
        var services: [PagingService] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT kind, definition FROM escalation_record WHERE tenant_id = ? ORDER BY id",
            arguments: [tenantID])
        {
            let json: String = row["definition"]
            switch row["kind"] as String {
            case "policy": policies.append(EscalationPolicy(try Roster_V1_EscalationPolicy(jsonString: json)))
            default: services.append(PagingService(try Roster_V1_Service(jsonString: json)))
            }
        }
        return (policies, services)
    }

    static func applyEscalation(_ change: RosterChange, tenantID: String, db: Database) throws {
        func upsert(kind: String, id: String, json: String) throws {
            try db.execute(
                sql: """
                    INSERT INTO escalation_record (tenant_id, kind, id, definition) VALUES (?, ?, ?, ?)
                    ON CONFLICT (tenant_id, kind, id) DO UPDATE SET definition = excluded.definition
                    """, arguments: [tenantID, kind, id, json])
        }
        func delete(kind: String, id: String) throws {
            try db.execute(
                sql: "DELETE FROM escalation_record WHERE tenant_id = ? AND kind = ? AND id = ?",
                arguments: [tenantID, kind, id])
        }
        switch change {
        case .escalationPolicySet(let policy):
            try upsert(kind: "policy", id: policy.id, json: try Roster_V1_EscalationPolicy(policy).jsonString())
        case .escalationPolicyDeleted(let id): try delete(kind: "policy", id: id)
        case .serviceSet(let service):
            try upsert(kind: "service", id: service.id, json: try Roster_V1_Service(service).jsonString())
        case .serviceDeleted(let id): try delete(kind: "service", id: id)
        default: break
        }
    }
}
