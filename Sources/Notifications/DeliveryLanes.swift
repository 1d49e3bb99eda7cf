import NIOConcurrencyHelpers
import NIOCore

/// Deliveries under way per destination, each destination a lane: at most `width` run at once in
/// a lane, and the heads found beyond that wait in its queue, first come first served, until one
/// of its deliveries ends and takes the next (docs/NOTIFICATIONS.md, "Delivery").
///
/// A handoff to ten thousand phones at one push service used to start ten thousand deliveries at
/// once, nearly all of them waiting for one of the service's kept connections: each held its
/// task's frames (about 16 KB), 160 MB in all, made afresh at every handoff. A head waiting here
/// is a few hundred bytes; a lane's running deliveries are twice the connections kept to an
/// origin, so one is ready whenever a connection frees while others record their outcomes. Lanes
/// are independent: a slow destination's queue never holds up another's.
final class DeliveryLanes<Item: Sendable>: Sendable {
    let width: Int

    private struct Lane {
        var running = 0
        var waiting = CircularBuffer<Item>()
    }
    private let lanes = NIOLockedValueBox<[String: Lane]>([:])

    init(width: Int = 2 * KeptConnections.Limits().perOrigin) {
        precondition(width > 0)
        self.width = width
    }

    /// Whether `item` may start now in `lane` (it is then counted as running); otherwise it is
    /// queued there for `next`.
    func admit(_ item: Item, lane: String) -> Bool {
        // Changed in place: a copy of the lane would copy its queue on every append.
        lanes.withLockedValue { lanes in
            Self.take(item, into: &lanes[lane, default: Lane()], width: width)
        }
    }

    private static func take(_ item: Item, into lane: inout Lane, width: Int) -> Bool {
        guard lane.running < width else {
            lane.waiting.append(item)
            return false
        }
        lane.running += 1
        return true
    }

    /// For a delivery that ended in `lane`: the item to run next in its place, or nil, and then
    /// one fewer runs there.
    func next(in lane: String) -> Item? {
        lanes.withLockedValue { lanes in
            guard var found = lanes.removeValue(forKey: lane) else { return nil }
            let taken = found.waiting.popFirst()
            if taken == nil { found.running -= 1 }
            if found.running > 0 || !found.waiting.isEmpty { lanes[lane] = found }
            return taken
        }
    }

    /// Running and waiting in `lane` (for tests and the notes).
    func counts(_ lane: String) -> (running: Int, waiting: Int) {
        lanes.withLockedValue { ($0[lane]?.running ?? 0, $0[lane]?.waiting.count ?? 0) }
    }

    /// A URL's lane: its scheme and authority as written, found without parsing the whole URL (a
    /// handoff looks at thousands). Spellings of one origin that differ (a default port written
    /// out, letters' case) make separate lanes, which only lets that origin run more at once; the
    /// kept connections still count it as one.
    func lane(of url: String) -> String {
        let text = url.utf8
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return url }
        var start = text.index(after: colon)
        for _ in 0..<2 where start != text.endIndex && text[start] == UInt8(ascii: "/") {
            start = text.index(after: start)
        }
        let end =
            text[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? text.endIndex
        return String(url[url.startIndex..<end])
    }
}
