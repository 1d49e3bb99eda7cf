import RosterDomain
import RosterStore

/// The duty record (`DutyRecord`) in the shared store: the same tables and rules as SQLite's.
extension PostgresRosterStore {
    public func recordDuty(tenantID: String, atRevision revision: UInt64, _ write: DutyRecordWrite) async throws -> Bool
    {
        try await transaction { connection in
            // The row lock orders the round after (or before) any commit to the tenant.
            var stored: Int64?
            for value in try await connection.query("SELECT revision FROM tenant WHERE id = \(tenantID) FOR UPDATE")
                .decode(Int64.self)
            {
                stored = value
            }
            guard stored == Int64(revision) else { return false }
            try await Self.writeDuty(write, tenantID: tenantID, connection: connection)
            return true
        }
    }

    static func writeDuty(_ write: DutyRecordWrite, tenantID: String, connection: PostgresConnection) async throws {
        guard !write.isEmpty else { return }
        // What is recorded already is never written twice: each stretch is cut at its schedule's
        // stored mark (a round and a change may both have resolved the same past).
        var marks: [String: UnixMillis] = [:]
        for (schedule, until) in try await connection.query(
            """
            SELECT schedule_id, until_ms FROM duty_record_mark WHERE tenant_id = \(tenantID) FOR UPDATE
            """
        ).decode((String, Int64).self) {
            marks[schedule] = until
        }
        for var stretch in write.stretches {
            stretch.start = max(stretch.start, marks[stretch.scheduleID] ?? .min)
            guard stretch.start < stretch.end else { continue }
            // Continuing a recorded stretch (the same duty cut by an earlier round) extends it.
            var extended = false
            for _ in try await connection.query(
                """
                UPDATE duty_record SET end_ms = \(stretch.end) WHERE tenant_id = \(tenantID) AND schedule_id = \(stretch.scheduleID)
                AND employee_id = \(stretch.employeeID) AND end_ms = \(stretch.start) AND kind = \(stretch.kind.rawValue)
                AND replacing = \(stretch.replacing) RETURNING 1
                """
            ).decode(Int32.self) { extended = true }
            if extended { continue }
            try await connection.query(
                """
                INSERT INTO duty_record (tenant_id, schedule_id, employee_id, start_ms, end_ms, kind, replacing)
                VALUES (\(tenantID), \(stretch.scheduleID), \(stretch.employeeID), \(stretch.start), \(stretch.end), \(stretch.kind.rawValue),
                        \(stretch.replacing))
                """)
        }
        for (schedule, until) in write.marks {
            try await connection.query(
                """
                INSERT INTO duty_record_mark (tenant_id, schedule_id, since_ms, until_ms) VALUES (\(tenantID), \(schedule), \(until), \(until))
                ON CONFLICT (tenant_id, schedule_id) DO UPDATE SET until_ms = GREATEST(duty_record_mark.until_ms, excluded.until_ms)
                """)
        }
    }

    public func dutyRecordMarks(tenantID: String) async throws -> [String: DutyRecordMark] {
        var marks: [String: DutyRecordMark] = [:]
        let rows = try await connections.query(
            """
            SELECT schedule_id, since_ms, until_ms FROM duty_record_mark WHERE tenant_id = \(tenantID)
            """)
        for (schedule, since, until) in try rows.decode((String, Int64, Int64).self) {
            marks[schedule] = DutyRecordMark(since: since, until: until)
        }
        return marks
    }

    public func dutyRecord(tenantID: String, from: UnixMillis, to: UnixMillis, limit: Int) async throws
        -> (stretches: [RecordedStretch], truncated: Bool)
    {
        let rows = try await connections.query(
            """
            SELECT schedule_id, employee_id, start_ms, end_ms, kind, replacing FROM duty_record
            WHERE tenant_id = \(tenantID) AND start_ms < \(to) AND end_ms > \(from) ORDER BY start_ms LIMIT \(Int64(limit) + 1)
            """)
        var found: [RecordedStretch] = []
        for row in try rows.decode((String, String, Int64, Int64, String, String).self) {
            found.append(
                RecordedStretch(
                    scheduleID: row.0, employeeID: row.1, start: row.2, end: row.3,
                    kind: RecordedStretch.Kind(rawValue: row.4) ?? .override, replacing: row.5))
        }
        let truncated = found.count > limit
        return (Array(found.prefix(limit)), truncated)
    }
}
