import Foundation
import RosterDomain
import RosterServerCore

// The schedule page's timeline: lanes of bars packed into rows, labels fitted to their width,
// and the "now" line, drawn as SVG.

extension SchedulePage {
    static func timeline(
        _ html: inout HTML, lanes: [Lane], window: TimelineWindow, label: ZoneLabel, now: UnixMillis, words: Words
    ) {
        let days = window.days
        let nowShown = now >= window.from && now < window.to
        html.raw("<div class=\"timeline\"")
        html.attribute("data-from", String(window.from))
        html.attribute("data-to", String(window.to))
        html.raw(">")
        // The day scale: a label at each local midnight.
        html.raw("<svg class=\"scale\" role=\"img\" height=\"22\"><title>")
        html.text(words("Days from \(label.label(window.from)) to \(label.label(window.to))"))
        html.raw("</title>")
        for (index, day) in days.enumerated() {
            guard
                let text = dayLabel(index: index, day: day.day.day, weekday: label.weekday(day.day), span: window.span)
            else { continue }
            let x = format(window.percent(day.instant))
            html.raw("<text y=\"16\"")
            html.attribute("x", "\(x)%")
            html.raw(">")
            html.text(text)
            html.raw("</text>")
        }
        html.raw("</svg>")
        for lane in lanes {
            html.raw("<section class=\"lane\">")
            html.element("h2", lane.title)
            if lane.bars.isEmpty { html.element("p", class: "empty", words("Nothing in this window.")) }
            let rows = packed(lane.bars)
            let height = max(1, (rows.max() ?? 0) + 1) * rowHeight + 4
            html.raw("<svg class=\"track\" role=\"group\"")
            html.attribute("aria-label", lane.title)
            html.attribute("height", String(height))
            html.raw(">")
            for day in days {
                let x = format(window.percent(day.instant))
                html.raw("<line class=\"day\" y1=\"0\" y2=\"100%\"")
                html.attribute("x1", "\(x)%")
                html.attribute("x2", "\(x)%")
                html.raw("/>")
            }
            for (bar, row) in zip(lane.bars, rows) {
                draw(&html, bar, row: row, window: window, label: label, words: words)
            }
            if nowShown {
                let x = format(window.percent(now))
                html.raw("<line class=\"now\" y1=\"0\" y2=\"100%\"")
                html.attribute("x1", "\(x)%")
                html.attribute("x2", "\(x)%")
                html.raw("><title>\(words("Now"))</title></line>")
            }
            html.raw("</svg>")
            if lane.truncated {
                html.element(
                    "p", class: "problem", words("More than \(maxBarsPerLane) stretches: the first ones are drawn."))
            }
            html.raw("</section>")
        }
        html.raw("</div>")
    }

    /// A row for each bar, so that bars that overlap in time sit one above the other.
    static func packed(_ bars: [Bar]) -> [Int] {
        var rowEnds: [UnixMillis] = []
        var rows: [Int] = []
        for bar in bars {
            if let row = rowEnds.firstIndex(where: { $0 <= bar.start }) {
                rowEnds[row] = bar.end
                rows.append(row)
            } else {
                rowEnds.append(bar.end)
                rows.append(rowEnds.count - 1)
            }
        }
        return rows
    }

    /// A bar's label cut to what fits its width, with an ellipsis ("Ada Lovel…"), or nothing
    /// when not two characters fit (the title and the table below carry it whole). Sized for the
    /// page at its widest (60rem less padding: 928 px; 0.8rem text, about 7 px a character).
    static func fitted(_ label: String, percent: Double) -> String {
        let fits = Int((percent * 9.28 - 8) / 7)
        guard label.count > fits else { return label }
        return fits < 2 ? "" : String(label.prefix(fits - 1)) + "…"
    }

    static func draw(
        _ html: inout HTML, _ bar: Bar, row: Int, window: TimelineWindow, label: ZoneLabel, words: Words
    ) {
        let x = window.percent(bar.start), width = window.percent(bar.end) - x
        let className: String
        switch bar.kind {
        case .person(let id): className = "bar p\(WebPage.colour(of: id))"
        case .override: className = "bar override"
        case .gap: className = "bar gap"
        }
        let description = "\(bar.label), \(label.label(bar.start)) – \(label.label(bar.end))"
        if let link = bar.link {
            html.raw("<a")
            html.attribute("href", link)
            html.attribute("aria-label", words("Override: \(description)"))
            html.raw(">")
        }
        html.raw("<svg")
        html.attribute("class", className)
        html.attribute("x", "\(format(x))%")
        html.attribute("y", String(row * rowHeight + 2))
        html.attribute("width", "\(format(width))%")
        html.attribute("height", String(rowHeight - 4))
        html.attribute("data-start", String(bar.start))
        html.attribute("data-end", String(bar.end))
        html.raw("><title>")
        html.text(description)
        html.raw("</title><rect width=\"100%\" height=\"100%\" rx=\"3\"/><text x=\"4\" y=\"16\">")
        html.text(fitted(bar.label, percent: width))
        html.raw("</text></svg>")
        if bar.link != nil { html.raw("</a>") }
    }

    static func format(_ percent: Double) -> String { String(format: "%.3f", percent) }
}
