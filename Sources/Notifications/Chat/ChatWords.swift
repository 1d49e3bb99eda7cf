import RosterServerCore

/// A chat line as written in the code: its English text, and the pieces interpolated into it (a
/// mention, a time, a list of people), each a placeholder `{n}` of the catalog's message.
/// `words.line("\(.person(ada)) is on call for \(schedule)")` is "{1} is on call for {2}".
struct ChatText: ExpressibleByStringInterpolation, Sendable {
    var key: String
    var values: [[ChatMessage.Piece]]

    init(stringLiteral value: String) { (key, values) = (value, []) }

    init(stringInterpolation: StringInterpolation) {
        (key, values) = (stringInterpolation.key, stringInterpolation.values)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var key = ""
        var values: [[ChatMessage.Piece]] = []

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) { key += literal }

        mutating func appendInterpolation(_ pieces: [ChatMessage.Piece]) {
            values.append(pieces)
            key += "{\(values.count)}"
        }

        mutating func appendInterpolation(_ piece: ChatMessage.Piece) { appendInterpolation([piece]) }

        mutating func appendInterpolation(_ text: String) { appendInterpolation([.text(text)]) }

        mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) { appendInterpolation(String(value)) }
    }
}

extension Words {
    /// The line in this language: the translation's text around each placeholder's pieces.
    func line(_ text: ChatText) -> [ChatMessage.Piece] { Self.pieces(template(text.key), text.values) }

    /// A plural line's form for `count`.
    func line(_ count: Int, _ one: ChatText, _ other: ChatText) -> [ChatMessage.Piece] {
        Self.pieces(template(count, one: one.key, other: other.key), count == 1 ? one.values : other.values)
    }

    private static func pieces(_ template: String, _ values: [[ChatMessage.Piece]]) -> [ChatMessage.Piece] {
        var pieces: [ChatMessage.Piece] = []
        walk(template, values: values.count, text: { pieces.append(.text(String($0))) }) { pieces += values[$0 - 1] }
        return pieces
    }
}
