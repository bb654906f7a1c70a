/// The report as Markdown, for a pull request, an issue or an email: the same facts as the
/// page, the plots as a sparkline of the row counts.
extension MirrorReport {
    public func markdown() -> String {
        var lines = ["# \(Self.inline(title))", "", Self.inline(summaryLine), ""]
        guard !datasets.isEmpty else { return (lines + ["The database holds no dataset socload loaded.", ""]).joined(separator: "\n") }
        lines += ["| dataset | watch | rows | last refresh | portal last changed | last change |", "|---|---|---:|---|---|---|"]
        for dataset in datasets {
            let change = dataset.refreshes.last { $0.changedSomething }
            lines.append("| \(Self.cell(dataset.name)) | \((dataset.watch?.state ?? .unknown).rawValue) | \(RefreshPlot.grouped(dataset.rows)) | "
                         + "\(Self.cell(dataset.fetchedAt)) | \(Self.cell(dataset.rowsUpdatedAt ?? "")) | "
                         + "\(change.map { Self.cell($0.at + ": " + RefreshPlot.changeWords($0)) } ?? "") |")
        }
        for dataset in datasets {
            lines += ["", "## \(Self.inline(dataset.name)) (\((dataset.watch?.state ?? .unknown).rawValue))", ""]
            var facts: [String] = []
            if let title = dataset.title, title != dataset.name { facts.append(Self.inline(title)) }
            if let page = MarkupText.link(dataset.page), let id = dataset.datasetID {
                facts.append("[\(Self.inline(id))](\(page))")
            }
            facts.append("table `\(dataset.table.replacingOccurrences(of: "`", with: "'"))`, \(RefreshPlot.rowsText(dataset.rows))")
            facts.append("loaded \(dataset.fetchedAt)")
            if let stamp = dataset.rowsUpdatedAt { facts.append("the portal changed its rows \(Self.inline(stamp))") }
            if let expected = dataset.watch?.expected { facts.append("expected \(Self.inline(expected.text))") }
            lines.append(facts.joined(separator: " · "))
            if let note = dataset.watch?.note { lines += ["", "> " + Self.inline(note)] }
            if !dataset.refreshes.isEmpty {
                lines += ["", "Rows over the last \(dataset.refreshes.count) refreshes: `\(Self.sparkline(dataset.refreshes.map(\.rows)))`", "",
                          "| at | how | rows | added | changed | removed | schema changes |", "|---|---|---:|---:|---:|---:|---:|"]
                func count(_ value: Int?) -> String { value.map(RefreshPlot.grouped) ?? "" }
                for refresh in dataset.refreshes.reversed() {
                    lines.append("| \(Self.cell(refresh.at)) | \(Self.cell(refresh.kind)) | \(RefreshPlot.grouped(refresh.rows)) | "
                                 + "\(count(refresh.added)) | \(count(refresh.changed)) | \(count(refresh.removed)) | \(refresh.schemaChanges) |")
                }
            }
            if !dataset.schemaChanges.isEmpty {
                lines += ["", "Schema changes:", ""] + dataset.schemaChanges.map { "- \(Self.inline($0.at)): \(Self.inline($0.line))" }
            }
            if let verify = dataset.verify { lines += ["", Self.inline(Self.verifyWords(verify))] }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `▁▂▄█`: each value's height from 0 to the largest (a small change draws small).
    static func sparkline(_ values: [Int]) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        guard let high = values.max(), high > 0 else { return String(repeating: "▁", count: values.count) }
        return String(values.map { bars[(max($0, 0) * (bars.count - 1) + high / 2) / high] })
    }

    /// Text on one line with Markdown's markup characters escaped (a name is never a link or a heading).
    static func inline(_ text: String) -> String {
        var out = ""
        for character in text {
            if character.isNewline { out.append(" "); continue }
            if "\\`*_[]<>|~".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A table cell: inline text (its pipes escaped).
    static func cell(_ text: String) -> String { inline(text) }
}
