import NIOConcurrencyHelpers
import NIOCore

/// Deliveries under way per destination, each destination a lane: at most `width` run at once in
/// a lane, and the heads found beyond that wait in it until one of its deliveries ends and takes
/// the next (docs/NOTIFICATIONS.md, "Durability").
///
/// A handoff to ten thousand phones at one push service used to start ten thousand deliveries at
/// once, nearly all of them waiting for one of the service's kept connections: each held its
/// task's frames (about 16 KB), 160 MB in all, made afresh at every handoff. A head waiting here
/// is a few hundred bytes; a lane's running deliveries are twice the connections kept to an
/// origin, so one is ready whenever a connection frees while others record their outcomes.
///
/// Lanes are independent: a slow destination's queue never holds up another's. Within a lane the
/// waiting are taken one tenant at a time in turn, each tenant's first come first served: a push
/// service is shared by every tenant, and one tenant's handoff to ten thousand phones must not
/// put another's five behind it.
final class DeliveryLanes<Item: Sendable>: Sendable {
    let width: Int

    private struct Lane {
        var running = 0
        /// Each tenant's waiting, and the tenants with any, in the order they are served.
        var waiting: [String: CircularBuffer<Item>] = [:]
        var turns = CircularBuffer<String>()
        var isIdle: Bool { running == 0 && turns.isEmpty }

        mutating func admit(_ item: Item, tenant: String, width: Int) -> Bool {
            guard running < width else {
                if waiting[tenant, default: []].isEmpty { turns.append(tenant) }
                waiting[tenant, default: []].append(item)
                return false
            }
            running += 1
            return true
        }

        mutating func next() -> Item? {
            guard let tenant = turns.popFirst(), let item = waiting[tenant]?.popFirst() else {
                running -= 1
                return nil
            }
            if waiting[tenant]?.isEmpty == true { waiting[tenant] = nil } else { turns.append(tenant) }
            return item
        }
    }
    private let lanes = NIOLockedValueBox<[String: Lane]>([:])

    init(width: Int = 2 * KeptConnections.Limits().perOrigin) {
        precondition(width > 0)
        self.width = width
    }

    /// Whether `item`, of `tenant`, may start now in `lane` (it is then counted as running);
    /// otherwise it waits there for `next`.
    func admit(_ item: Item, lane: String, tenant: String) -> Bool {
        // Changed in place: a copy of the lane would copy its queues on every append.
        lanes.withLockedValue { $0[lane, default: Lane()].admit(item, tenant: tenant, width: width) }
    }

    /// For a delivery that ended in `lane`: the item to run next in its place (the next tenant's
    /// turn), or nil, and then one fewer runs there.
    func next(in lane: String) -> Item? {
        lanes.withLockedValue { lanes in
            // Moved out and back, so its queues change in place rather than being copied.
            guard var found = lanes.removeValue(forKey: lane) else { return nil }
            let taken = found.next()
            if !found.isIdle { lanes[lane] = found }
            return taken
        }
    }

    /// Running and waiting in `lane` (for tests).
    func counts(_ lane: String) -> (running: Int, waiting: Int) {
        lanes.withLockedValue { lanes in
            (lanes[lane]?.running ?? 0, lanes[lane]?.waiting.values.reduce(0) { $0 + $1.count } ?? 0)
        }
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
