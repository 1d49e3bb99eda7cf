/// HTML text built by appending: every value from outside goes through `text(_:)` or
/// `attribute(_:_:)`, which escape it, so a person named `<img src=x onerror=alert(1)>` is shown
/// as those characters. Markup is appended with `raw(_:)`, only from literals in this target.
struct HTML {
    private(set) var output = ""

    mutating func raw(_ markup: String) { output += markup }

    mutating func text(_ value: String) { output += Self.escape(value) }

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
