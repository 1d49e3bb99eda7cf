import Foundation

/// HTML text built by appending: every value from outside goes through `text(_:)` or
/// `attribute(_:_:)`, which escape it, so a person named `<img src=x onerror=alert(1)>` is shown
/// as those characters. Markup is appended with `raw(_:)`, which takes `Markup`: a string
/// literal, in which every interpolated `String` is escaped and only numbers go in as they are.
/// A `String` variable cannot be passed as markup at all.
struct HTML {
    private(set) var output = ""

    mutating func raw(_ markup: Markup) { output += markup.text }

    mutating func text(_ value: String) { output += Self.escape(value) }

    /// JSON data to stand inside a `<script type="application/json">` element: `<`, `>` and `&`
    /// are written as JSON escapes, so no name can close the element.
    mutating func json(_ json: String) {
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": output += "\\u003c"
            case ">": output += "\\u003e"
            case "&": output += "\\u0026"
            default: output.unicodeScalars.append(scalar)
            }
        }
    }

    /// ` name="value"`, the value escaped.
    mutating func attribute(_ name: String, _ value: String) {
        output += " \(name)=\"\(Self.escape(value))\""
    }

    /// `<tag class="…">text</tag>`, the text escaped.
    mutating func element(_ tag: String, class className: String? = nil, role: String? = nil, _ value: String) {
        output += "<\(tag)"
        if let className { attribute("class", className) }
        if let role { attribute("role", role) }
        output += ">"
        text(value)
        output += "</\(tag)>"
    }

    static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

/// Markup written in this target: the literal parts as they are, interpolated values escaped
/// (strings) or printed (numbers). `"<li class=\"\(name)\">"` cannot break out of its attribute.
struct Markup: ExpressibleByStringInterpolation {
    fileprivate var text: String

    init(stringLiteral value: String) { text = value }

    init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) { text += literal }

        /// A value from anywhere: escaped.
        mutating func appendInterpolation(_ value: String) { text += HTML.escape(value) }

        /// A number: its digits.
        mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) { text += String(value) }
    }
}
