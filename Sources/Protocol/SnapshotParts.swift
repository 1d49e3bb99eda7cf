import NIOCore

/// A snapshot larger than the frame limit, sent as several Snapshot frames (PROTOCOL.md §7.6).
///
/// A tenant of 10,000 people and 100,000 shifts has a 3.4 MB snapshot, past the 1 MiB frame
/// limit a receiver enforces; a client that says it understands the feature gets it in parts:
/// consecutive slices of the employees, the shifts, the schedules, the time off, then the holiday calendars, each part with the
/// snapshot's epoch and revision, the tenant in the first, and `more` set on all but the last.
/// Merging the parts in order gives the snapshot back.
public enum SnapshotParts {
    /// The Hello feature a client lists to receive snapshots in parts.
    public static let feature = "snapshot-parts"

    /// The frames that carry `snapshot` within `maxFrameBytes` each: one frame when it fits.
    /// A single record larger than the limit gets a frame of its own (which the receiver refuses;
    /// records come in through frames of the same limit, so there is none).
    public static func frames(_ snapshot: Roster_V1_Snapshot, requestID: UInt32, maxFrameBytes: Int) -> [Frame] {
        let maxBody = maxFrameBytes - Frame.headerRestLength
        let whole = RosterMessage.snapshot(snapshot).bodyBuffer()
        guard whole.readableBytes > maxBody else {
            return [Frame(type: .snapshot, requestID: requestID, body: whole)]
        }
        // Every record in one numbering, kind after kind; each kind copies its `index`th record.
        let kinds: [(count: Int, copy: (inout Roster_V1_Snapshot, Int) -> Void)] = [
            (snapshot.employees.count, { $0.employees.append(snapshot.employees[$1]) }),
            (snapshot.shifts.count, { $0.shifts.append(snapshot.shifts[$1]) }),
            (snapshot.schedules.count, { $0.schedules.append(snapshot.schedules[$1]) }),
            (snapshot.timeOff.count, { $0.timeOff.append(snapshot.timeOff[$1]) }),
            (snapshot.holidays.count, { $0.holidays.append(snapshot.holidays[$1]) }),
            (snapshot.escalationPolicies.count, { $0.escalationPolicies.append(snapshot.escalationPolicies[$1]) }),
            (snapshot.services.count, { $0.services.append(snapshot.services[$1]) }),
        ]
        let total = kinds.reduce(0) { $0 + $1.count }
        // Aim at parts three quarters full; a part that still does not fit is halved.
        let partCount = min(max(total, 1), whole.readableBytes / max(1, maxBody * 3 / 4) + 1)
        var parts: [(message: Roster_V1_Snapshot, body: ByteBuffer)] = []
        func add(_ range: Range<Int>, first: Bool) {
            var part = Roster_V1_Snapshot()
            part.epoch = snapshot.epoch
            part.revision = snapshot.revision
            if first { part.tenant = snapshot.tenant }
            var start = 0
            for kind in kinds {
                let lower = max(range.lowerBound, start)
                let upper = min(range.upperBound, start + kind.count)
                if lower < upper { for index in lower..<upper { kind.copy(&part, index - start) } }
                start += kind.count
            }
            part.more = true  // the last part's is cleared below, which only makes it smaller
            let body = RosterMessage.snapshot(part).bodyBuffer()
            if body.readableBytes > maxBody && range.count > 1 {
                let middle = range.lowerBound + range.count / 2
                add(range.lowerBound..<middle, first: first)
                add(middle..<range.upperBound, first: false)
            } else {
                parts.append((part, body))
            }
        }
        for index in 0..<partCount {
            add((total * index / partCount)..<(total * (index + 1) / partCount), first: index == 0)
        }
        parts[parts.count - 1].message.more = false
        parts[parts.count - 1].body = RosterMessage.snapshot(parts[parts.count - 1].message).bodyBuffer()
        return parts.map { Frame(type: .snapshot, requestID: requestID, body: $0.body) }
    }
}

/// A receiver's assembly of a snapshot that comes in parts.
public struct SnapshotAssembly: Sendable {
    private var pending: [UInt32: Roster_V1_Snapshot] = [:]

    public init() {}

    /// Takes one Snapshot frame's message; returns the whole snapshot once its last part is in,
    /// nil while parts are still to come.
    public mutating func add(_ part: Roster_V1_Snapshot, requestID: UInt32) -> Roster_V1_Snapshot? {
        guard var merged = pending.removeValue(forKey: requestID) else {
            if part.more { pending[requestID] = part; return nil }
            return part
        }
        merged.employees += part.employees
        merged.shifts += part.shifts
        merged.schedules += part.schedules
        merged.timeOff += part.timeOff
        merged.holidays += part.holidays
        merged.escalationPolicies += part.escalationPolicies
        merged.services += part.services
        merged.more = part.more
        if part.more {
            pending[requestID] = merged
            return nil
        }
        return merged
    }
}
