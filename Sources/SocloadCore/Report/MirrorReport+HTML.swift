/// The report as one self-contained HTML page: inline CSS and SVG, no script, no request to
/// anywhere, readable in any browser and as a mail attachment.
extension MirrorReport {
    public func html() -> String {
        var page: [String] = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
            "<meta name=\"generator\" content=\"socload\">",
            "<title>\(MarkupText.escaped(title))</title>",
            "<style>\(Self.style)</style>",
            "</head>",
            "<body>",
            "<header>",
            "<h1>\(MarkupText.escaped(title))</h1>",
            "<p>\(MarkupText.escaped(summaryLine))</p>",
            "</header>",
        ]
        if datasets.isEmpty {
            page.append("<p>The database holds no dataset socload loaded.</p>")
        } else {
            page += summaryTable()
            for (index, dataset) in datasets.enumerated() { page += section(dataset, number: index + 1) }
        }
        page += ["<footer><p>Made by socload at \(MarkupText.escaped(generatedAt)) from \(MarkupText.escaped(database)).</p></footer>",
                 "</body>", "</html>"]
        return page.joined(separator: "\n") + "\n"
    }

    /// `12 datasets: 9 fresh, 2 stale, 1 gone. Database 'watch.sqlite', 2026-12-05T06:00:00Z.`
    var summaryLine: String {
        let counts = watchCounts.map { "\($0.count) \($0.state.rawValue)" }.joined(separator: ", ")
        return "\(datasets.count) dataset\(datasets.count == 1 ? "" : "s")" + (counts.isEmpty ? "" : ": " + counts)
            + ". Database \(database), \(generatedAt)."
    }

    private func summaryTable() -> [String] {
        var lines = ["<table class=\"summary\">", "<thead><tr><th>dataset</th><th>watch</th><th>rows</th><th>last refresh</th>"
                     + "<th>portal last changed</th><th>last change</th></tr></thead>", "<tbody>"]
        for (index, dataset) in datasets.enumerated() {
            let state = dataset.watch?.state ?? .unknown
            let change = dataset.refreshes.last { $0.changedSomething }
            lines.append("<tr><td><a href=\"#d\(index + 1)\">\(MarkupText.escaped(dataset.name))</a></td>"
                         + "<td><span class=\"watch \(state.rawValue)\">\(state.rawValue)</span></td>"
                         + "<td class=\"n\">\(RefreshPlot.grouped(dataset.rows))</td><td>\(MarkupText.escaped(dataset.fetchedAt))</td>"
                         + "<td>\(MarkupText.escaped(dataset.rowsUpdatedAt ?? ""))</td>"
                         + "<td>\(change.map { MarkupText.escaped($0.at + ": " + RefreshPlot.changeWords($0)) } ?? "")</td></tr>")
        }
        return lines + ["</tbody>", "</table>"]
    }

    private func section(_ dataset: Dataset, number: Int) -> [String] {
        let state = dataset.watch?.state ?? .unknown
        var lines = ["<section class=\"dataset\" id=\"d\(number)\">",
                     "<h2>\(MarkupText.escaped(dataset.name)) <span class=\"watch \(state.rawValue)\">\(state.rawValue)</span></h2>"]
        var facts: [String] = []
        if let title = dataset.title, title != dataset.name { facts.append(MarkupText.escaped(title)) }
        if let page = MarkupText.link(dataset.page) {
            facts.append("<a href=\"\(page)\">\(MarkupText.escaped(dataset.datasetID ?? "the portal's page"))</a>")
        } else if let id = dataset.datasetID {
            facts.append(MarkupText.escaped(id))
        }
        facts.append("table <code>\(MarkupText.escaped(dataset.table))</code>, \(RefreshPlot.rowsText(dataset.rows))")
        facts.append("loaded \(MarkupText.escaped(dataset.fetchedAt))")
        if let stamp = dataset.rowsUpdatedAt { facts.append("the portal changed its rows \(MarkupText.escaped(stamp))") }
        if let expected = dataset.watch?.expected { facts.append("expected \(MarkupText.escaped(expected.text))") }
        lines.append("<p class=\"facts\">\(facts.joined(separator: " · "))</p>")
        if let watch = dataset.watch, let note = watch.note {
            let when = dataset.watchCheckedAt.map { " (so since the refresh of \(MarkupText.escaped($0)))" } ?? ""
            lines.append("<p class=\"note \(state.rawValue)\">\(MarkupText.escaped(note))\(when)</p>")
        }
        let plot = RefreshPlot(refreshes: dataset.refreshes, label: dataset.name).svg
        if !plot.isEmpty {
            lines += ["<figure>", plot, "<figcaption>Rows after each of the last \(dataset.refreshes.count) refreshes (line), and the rows "
                      + "each added, changed and removed (bars).</figcaption>", "</figure>"]
            lines += refreshTable(dataset.refreshes)
        }
        if !dataset.schemaChanges.isEmpty {
            lines.append("<h3>Schema changes</h3>")
            lines.append("<ul>" + dataset.schemaChanges.map { "<li>\(MarkupText.escaped($0.at)): \(MarkupText.escaped($0.line))</li>" }
                .joined() + "</ul>")
        }
        if let verify = dataset.verify { lines.append("<p class=\"verify\">\(MarkupText.escaped(Self.verifyWords(verify)))</p>") }
        lines.append("</section>")
        return lines
    }

    private func refreshTable(_ refreshes: [Refresh]) -> [String] {
        var lines = ["<details><summary>The last refreshes</summary>", "<table class=\"refreshes\">",
                     "<thead><tr><th>at</th><th>how</th><th>rows</th><th>added</th><th>changed</th><th>removed</th>"
                     + "<th>schema changes</th><th>portal stamp</th></tr></thead>", "<tbody>"]
        func count(_ value: Int?) -> String { value.map(RefreshPlot.grouped) ?? "" }
        for refresh in refreshes.reversed() {
            lines.append("<tr><td>\(MarkupText.escaped(refresh.at))</td><td>\(MarkupText.escaped(refresh.kind))</td>"
                         + "<td class=\"n\">\(RefreshPlot.grouped(refresh.rows))</td><td class=\"n\">\(count(refresh.added))</td>"
                         + "<td class=\"n\">\(count(refresh.changed))</td><td class=\"n\">\(count(refresh.removed))</td>"
                         + "<td class=\"n\">\(refresh.schemaChanges)</td><td>\(MarkupText.escaped(refresh.rowsUpdatedAt ?? ""))</td></tr>")
        }
        return lines + ["</tbody>", "</table>", "</details>"]
    }

    /// `verify: all 25 checks agree with the portal's statistics`, or what differs.
    static func verifyWords(_ verify: Verify) -> String {
        if let reason = verify.partialReason { return "verify: not comparable with the portal's statistics (\(reason))" }
        if verify.differences.isEmpty {
            return "verify: all \(verify.checks) checks agree with the portal's statistics"
        }
        return "verify: \(verify.differences.count) of \(verify.checks) checks differ: " + verify.differences.joined(separator: "; ")
    }

    static let style = """
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:980px;padding:1rem 1.5rem;\
        color:#1a1a1a;background:#fafafa;line-height:1.4}h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin:0 0 .3rem}\
        h3{font-size:1rem;margin:.8rem 0 .3rem}table{border-collapse:collapse;width:100%;font-size:.9rem;background:#fff}\
        th,td{border-bottom:1px solid #e0e0e0;padding:.25rem .5rem;text-align:left;vertical-align:top}td.n{text-align:right;\
        font-variant-numeric:tabular-nums}section.dataset{background:#fff;border:1px solid #ddd;border-radius:6px;padding:1rem;\
        margin:1.2rem 0}.facts{color:#444;margin:.2rem 0}.note{margin:.4rem 0;padding:.3rem .6rem;border-left:4px solid #999;\
        background:#f4f4f4}.note.stale{border-color:#ef8f00}.note.gone,.note.moved{border-color:#c62828}.watch{display:inline-block;\
        padding:0 .45rem;border-radius:3px;font-size:.8rem;font-weight:600;color:#fff;background:#777;vertical-align:middle}\
        .watch.fresh{background:#2e7d32}.watch.stale{background:#ef8f00}.watch.gone,.watch.moved{background:#c62828}\
        figure{margin:.6rem 0}figcaption{font-size:.8rem;color:#555}svg.plot{max-width:100%;height:auto}code{font-size:.9em}\
        footer{color:#666;font-size:.8rem;margin-top:2rem}
        """
}
