import RosterDomain
import Testing

/// A person's duty as views show it: whole rather than cut at the window, back-to-back pieces
/// joined, and marked where it runs past what was followed.
@Suite(.timeLimit(.minutes(10))) struct WholeStretchesTests {
    let day: UnixMillis = 86_400_000
    struct Piece: Equatable { var schedule: String; var start: UnixMillis; var end: UnixMillis; var source: String }

    func shown(_ pieces: [Piece], from: UnixMillis, to: UnixMillis) -> [WholeStretches.Stretch<Piece>] {
        WholeStretches.shown(pieces, from: from, to: to, group: \.schedule, range: { $0.start..<$0.end })
    }

    @Test func aTurnTheWindowCutsIsShownWholeAndAnEditedTurnIsOne() {
        // A weekly turn from day 3 to day 10, split at day 6 by the rotation's new version; the
        // window is days 5 to 8.
        let pieces = [
            Piece(schedule: "p", start: 3 * day, end: 6 * day, source: "r1.v1"),
            Piece(schedule: "p", start: 6 * day, end: 10 * day, source: "r1.v2"),
            Piece(schedule: "q", start: 6 * day, end: 7 * day, source: "o1"),
        ]
        let stretches = shown(pieces, from: 5 * day, to: 8 * day)
        #expect(stretches.map { [$0.start / day, $0.end / day] } == [[3, 10], [6, 7]])
        #expect(stretches[0].pieces.map(\.source) == ["r1.v1", "r1.v2"] && stretches[1].pieces.map(\.source) == ["o1"])
        #expect(stretches.allSatisfy { !$0.startedEarlier && !$0.continues })
    }

    @Test func aStretchLongerThanWasFollowedSaysSoAndOnesOutsideTheWindowGo() {
        let reach = WholeStretches.reach
        let outer = WholeStretches.resolving(from: 20 * day, to: 30 * day)
        #expect(outer == (20 * day - reach, 30 * day + reach))
        let pieces = [
            Piece(schedule: "p", start: outer.from, end: 21 * day, source: "long before"),
            Piece(schedule: "p", start: 25 * day, end: 26 * day, source: "apart"),
            Piece(schedule: "p", start: 29 * day, end: outer.to, source: "long after"),
            Piece(schedule: "p", start: 31 * day, end: 32 * day, source: "outside"),
            Piece(schedule: "p", start: 10 * day, end: 20 * day, source: "ends as the window starts"),
        ]
        let stretches = shown(pieces, from: 20 * day, to: 30 * day)
        #expect(
            stretches.map(\.item.source) == ["long before", "apart", "long after"],
            "joined only where one meets the next")
        #expect(
            stretches.map(\.startedEarlier) == [true, false, false]
                && stretches.map(\.continues) == [false, false, true])
    }
}
