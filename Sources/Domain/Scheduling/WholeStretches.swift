/// A person's duty as views show it (the person page, `/me`, `show`, the app's detail): each
/// stretch that meets the window shown, whole rather than cut at the window's edges, and one
/// person's back-to-back stretches on one schedule joined (a turn that a rotation's new version
/// splits is one stretch to its person).
///
/// The caller resolves `resolving(from:to:)`, which reaches `reach` past each edge, and passes
/// the answer to `shown`; a stretch still cut there is marked `continues`.
public enum WholeStretches {
    /// How far past the window stretches are followed: two weeks covers a weekly or fortnightly
    /// turn; a longer one is shown to there and marked as going on.
    public static let reach: UnixMillis = 14 * 86_400_000

    /// The window to resolve for showing [from, to).
    public static func resolving(from: UnixMillis, to: UnixMillis) -> (from: UnixMillis, to: UnixMillis) {
        (from - reach, to + reach)
    }

    /// One stretch as shown: whole, with whether it goes on before or after what was resolved.
    public struct Stretch<Item> {
        /// The first of the pieces joined into it.
        public var item: Item { pieces[0] }
        /// What it was joined from, in order (one, unless back-to-back stretches were joined).
        public var pieces: [Item]
        public var start: UnixMillis
        public var end: UnixMillis
        public var startedEarlier: Bool
        public var continues: Bool
    }

    /// The stretches of `resolved` (an answer over `resolving(from:to:)`, in start order) that meet
    /// [from, to), joined per `group` (schedule and person) where one ends as the next begins.
    public static func shown<Item>(
        _ resolved: [Item], from: UnixMillis, to: UnixMillis, group: (Item) -> String,
        range: (Item) -> Range<UnixMillis>
    ) -> [Stretch<Item>] {
        let outer = resolving(from: from, to: to)
        var joined: [Stretch<Item>] = []
        var open: [String: Int] = [:]  // group → index of its last stretch in `joined`
        for item in resolved.sorted(by: { range($0).lowerBound < range($1).lowerBound }) {
            let span = range(item), key = group(item)
            if let index = open[key], joined[index].end >= span.lowerBound {
                joined[index].end = max(joined[index].end, span.upperBound)
                joined[index].pieces.append(item)
                joined[index].continues = joined[index].end >= outer.to
                continue
            }
            open[key] = joined.count
            joined.append(
                Stretch(
                    pieces: [item], start: span.lowerBound, end: span.upperBound,
                    startedEarlier: span.lowerBound <= outer.from, continues: span.upperBound >= outer.to))
        }
        return joined.filter { $0.start < to && $0.end > from }
    }
}
