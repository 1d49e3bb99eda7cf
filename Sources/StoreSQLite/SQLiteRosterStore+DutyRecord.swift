import Foundation
import GRDB
import RosterDomain
import RosterStore

/// The duty record (docs/REPORTS.md): what was on duty, written with the commits and by the
/// hourly round, and read back for reports.
extension SQLiteRosterStore {
    public func recordDuty(tenantID: String, atRevision revision: UInt64, _ write: DutyRecordWrite) async throws -> Bool
    {
        try await pool.write { db in
            guard
                try Int64.fetchOne(db, sql: "SELECT revision FROM tenant WHERE id = ?", arguments: [tenantID])
                    == Int64(revision)
            else {
                return false
            }
            try Self.writeDuty(write, tenantID: tenantID, db: db)
            return true
        }
    }

    static func writeDuty(_ write: DutyRecordWrite, tenantID: String, db: Database) throws {
        guard !write.isEmpty else { return }
        // What is recorded already is never written twice: each stretch is cut at its schedule's
        // stored mark (a round and a change may both have resolved the same past).
        var marks: [String: UnixMillis] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT schedule_id, until_ms FROM duty_record_mark WHERE tenant_id = ?", arguments: [tenantID])
        {
            marks[row["schedule_id"]] = row["until_ms"]
        }
        for var stretch in write.stretches {
            stretch.start = max(stretch.start, marks[stretch.scheduleID] ?? .min)
            guard stretch.start < stretch.end else { continue }
            // Continuing a recorded stretch (the same duty cut by an earlier round) extends it.
            try db.execute(
                sql: """
                    UPDATE duty_record SET end_ms = ? WHERE tenant_id = ? AND schedule_id = ? AND employee_id = ? AND end_ms = ?
                    AND kind = ? AND replacing = ?
                    """,
                arguments: [
                    stretch.end, tenantID, stretch.scheduleID, stretch.employeeID, stretch.start, stretch.kind.rawValue,
                    stretch.replacing,
                ])
            if db.changesCount > 0 { continue }
            try db.execute(
                sql: """
                    INSERT INTO duty_record (tenant_id, schedule_id, employee_id, start_ms, end_ms, kind, replacing) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    tenantID, stretch.scheduleID, stretch.employeeID, stretch.start, stretch.end, stretch.kind.rawValue,
                    stretch.replacing,
                ])
        }
        for (schedule, until) in write.marks {
            try db.execute(
                sql: """
                    INSERT INTO duty_record_mark (tenant_id, schedule_id, since_ms, until_ms) VALUES (?, ?, ?, ?)
                    ON CONFLICT (tenant_id, schedule_id) DO UPDATE SET until_ms = max(until_ms, excluded.until_ms)
                    """, arguments: [tenantID, schedule, until, until])
        }
    }

    public func dutyRecordMarks(tenantID: String) async throws -> [String: DutyRecordMark] {
        try await pool.read { db in
            var marks: [String: DutyRecordMark] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT schedule_id, since_ms, until_ms FROM duty_record_mark WHERE tenant_id = ?",
                arguments: [tenantID])
            {
                marks[row["schedule_id"]] = DutyRecordMark(since: row["since_ms"], until: row["until_ms"])
            }
            return marks
        }
    }

    public func dutyRecord(tenantID: String, from: UnixMillis, to: UnixMillis, limit: Int) async throws
        -> (stretches: [RecordedStretch], truncated: Bool)
    {
        try await pool.read { db in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT schedule_id, employee_id, start_ms, end_ms, kind, replacing FROM duty_record
                    WHERE tenant_id = ? AND start_ms < ? AND end_ms > ? ORDER BY start_ms
                    """, arguments: [tenantID, to, from])
            var found: [RecordedStretch] = []
            while let row = try rows.next() {
                if found.count == limit { return (found, true) }
                found.append(
                    RecordedStretch(
                        scheduleID: row["schedule_id"], employeeID: row["employee_id"], start: row["start_ms"],
                        end: row["end_ms"], kind: RecordedStretch.Kind(rawValue: row["kind"]) ?? .override,
                        replacing: row["replacing"]))
            }
            return (found, false)
        }
    }
}
