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
        let counts = (snapshot.employees.count, snapshot.shifts.count, snapshot.schedules.count)
        let total = counts.0 + counts.1 + counts.2 + snapshot.timeOff.count + snapshot.holidays.count
        // Aim at parts three quarters full; a part that still does not fit is halved.
        let partCount = min(max(total, 1), whole.readableBytes / max(1, maxBody * 3 / 4) + 1)
        var parts: [(message: Roster_V1_Snapshot, body: ByteBuffer)] = []
        func add(_ range: Range<Int>, first: Bool) {
            var part = Roster_V1_Snapshot()
            part.epoch = snapshot.epoch
            part.revision = snapshot.revision
            if first { part.tenant = snapshot.tenant }
            for index in range {
                if index < counts.0 {
                    part.employees.append(snapshot.employees[index])
                } else if index < counts.0 + counts.1 {
                    part.shifts.append(snapshot.shifts[index - counts.0])
                } else if index < counts.0 + counts.1 + counts.2 {
                    part.schedules.append(snapshot.schedules[index - counts.0 - counts.1])
                } else if index < counts.0 + counts.1 + counts.2 + snapshot.timeOff.count {
                    part.timeOff.append(snapshot.timeOff[index - counts.0 - counts.1 - counts.2])
                } else {
                    part.holidays.append(
                        snapshot.holidays[index - counts.0 - counts.1 - counts.2 - snapshot.timeOff.count])
                }
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
        merged.more = part.more
        if part.more {
            pending[requestID] = merged
            return nil
        }
        return merged
    }
}
