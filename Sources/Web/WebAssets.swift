import RosterHTTP

/// The style sheet: system fonts, contrast above WCAG AA (4.5:1 for text), visible focus.
enum WebAssets {
    static let styleSheet = """
        :root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --muted: #4a4a4a; --accent: #0b5cad; --card: #f3f5f8; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #f0f0f0; --bg: #121417; --muted: #c2c2c2; --accent: #8cc4ff; --card: #1d2127; }
        }
        [hidden] { display: none !important; }
        .skip { position: absolute; left: -10000px; }
        .skip:focus { left: 1rem; top: 1rem; z-index: 10; background: var(--bg); padding: 0.5rem 0.75rem; }
        body { font-family: system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 60rem; padding: 1rem; }
        header { display: flex; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
        h1 { margin: 0.5rem 0; }
        .tenant, .zone, .until, footer, .when, .status { color: var(--muted); }
        .motd { background: var(--card); padding: 0.75rem; border-left: 4px solid var(--accent); }
        .schedule { background: var(--card); border-radius: 6px; padding: 0.75rem 1rem; margin: 1rem 0; }
        .schedule h2 { margin: 0 0 0.25rem; }
        .schedule h3 { margin: 0.75rem 0 0.25rem; font-size: 1rem; }
        ul { list-style: none; padding: 0; margin: 0.25rem 0; }
        li { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0.25rem 0; }
        .on-duty .name { font-weight: 600; font-size: 1.15rem; }
        .role { border: 1px solid var(--muted); border-radius: 3px; padding: 0 0.3rem; }
        a { color: var(--accent); }
        a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .nobody, .problem { font-weight: 600; }
        nav ul.pages { display: flex; gap: 1.5rem; margin: 0 0 0.5rem; }
        nav a[aria-current="page"] { font-weight: 600; text-decoration: none; }
        form.search { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.5rem 0 1rem; }
        input, select, button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; padding: 0.25rem 0.5rem; }
        input:focus-visible, select:focus-visible, button:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
        form.inline { display: inline; margin-right: 0.3rem; }
        .group h2 { font-size: 1.1rem; margin: 1rem 0 0.25rem; }
        nav { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 0.5rem; }
        .account { display: flex; gap: 0.5rem; align-items: baseline; margin: 0; }
        form.language { display: flex; gap: 0.4rem; align-items: center; margin: 0; }
        .controls { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; margin: 0.5rem 0; }
        .controls ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
        .controls a[aria-current] { font-weight: 600; text-decoration: none; border-bottom: 2px solid var(--accent); }
        .lane h2 { font-size: 1rem; margin: 0.75rem 0 0.25rem; }
        svg.scale, svg.track { display: block; width: 100%; overflow: visible; }
        svg.track { background: var(--card); border-radius: 4px; }
        svg.scale text { fill: var(--muted); font-size: 0.75rem; }
        svg line.day { stroke: var(--muted); stroke-opacity: 0.35; }
        svg line.now { stroke: #c4001a; stroke-width: 2; }
        svg.bar text { fill: #111111; font-size: 0.8rem; }
        svg.bar rect { stroke: #1b1b1b; stroke-opacity: 0.4; }
        svg.p0 rect { fill: #a8d1ff; } svg.p1 rect { fill: #ffd59e; } svg.p2 rect { fill: #b8e6b0; } svg.p3 rect { fill: #f3b6c9; }
        svg.p4 rect { fill: #d6c4f5; } svg.p5 rect { fill: #9fe0dc; } svg.p6 rect { fill: #f5e79e; } svg.p7 rect { fill: #e0c7a8; }
        svg.override rect { fill: #ffe2b3; stroke-dasharray: 4 2; }
        svg.gap rect { fill: #c4001a; fill-opacity: 0.18; stroke: #c4001a; }
        svg.gap text { fill: #8a0012; font-weight: 600; }
        a:focus-visible svg rect, a:hover svg rect { stroke: var(--accent); stroke-width: 3; stroke-opacity: 1; }
        table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; }
        th, td { text-align: left; padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--card); }
        tr.gap td { font-weight: 600; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        form.edit { display: grid; grid-template-columns: max-content 1fr; gap: 0.5rem 1rem; align-items: center; max-width: 40rem; }
        form.edit .actions { grid-column: 1 / -1; display: flex; gap: 1rem; }
        .gained { color: #0a6b1f; } .lost { color: #a3001a; }
        @media (prefers-color-scheme: dark) { .gained { color: #7ee08f; } .lost { color: #ff9aa8; } svg.gap text { fill: #ffb3bd; } }
        .photo { width: 96px; height: 96px; border-radius: 50%; background: var(--accent); color: var(--bg); display: flex; align-items: center; justify-content: center; font-size: 2rem; font-weight: 600; }
        svg.hours-chart { width: 100%; max-width: 52rem; font-size: 12px; } svg.hours-chart text { fill: var(--fg); }
        .c-business { fill: #4a7fb5; } .c-outside { fill: #e0a030; } .c-night { fill: #5b4a9e; } .c-weekend { fill: #3f9a6a; } .c-holiday { fill: #c0504d; }
        dl.quality { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
        .offline { background: #fff3cd; color: #3d2e00; padding: 0.5rem 0.75rem; border-left: 4px solid #b38600; }
        @media print {
          :root { color-scheme: light; --fg: #000000; --bg: #ffffff; --muted: #333333; --accent: #000000; --card: #f3f3f3; }
          body { max-width: none; padding: 0; }
          nav, form, .skip, .controls, .as-table, .status, .offline, svg line.now { display: none !important; }
          a { color: inherit; text-decoration: none; }
          .lane, tr { break-inside: avoid; }
          svg.bar rect, svg.track { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
        }
        """

    /// The files under /assets/, each with its type, as they are and gzipped (once; nil when
    /// that gains nothing: a small file, a PNG already deflated).
    private static let files: [String: (type: String, plain: [UInt8], gzipped: [UInt8]?)] = {
        var files: [String: (String, [UInt8], [UInt8]?)] = [:]
        for (name, type, plain) in [
            ("app.css", "text/css; charset=utf-8", Array(styleSheet.utf8)),
            ("live.js", "text/javascript; charset=utf-8", Array(LiveScript.source.utf8)),
            ("push.js", "text/javascript; charset=utf-8", Array(PushScript.source.utf8)),
            ("manifest.webmanifest", "application/manifest+json", Array(AppIcon.manifest.utf8)),
        ] + AppIcon.sizes.map({ ("icon-\($0).png", "image/png", AppIcon.png(size: $0)) }) {
            let gzipped = Gzip.encode(plain, wanted: type != "image/png")
            files[name] = (type, plain, gzipped.compressed ? gzipped.body : nil)
        }
        return files
    }()

    /// An asset; nil for any other name.
    static func reply(for name: String, gzip: Bool) -> HTTPAPI.Reply? {
        guard let file = files[name] else { return nil }
        let gzipped = gzip ? file.gzipped : nil
        return HTTPAPI.Reply(
            status: 200, contentType: file.type, body: gzipped ?? file.plain,
            headers: WebPage.headers + Gzip.headers(compressed: gzipped != nil))
    }
}
