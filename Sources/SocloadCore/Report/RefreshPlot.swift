import Foundation

/// A dataset's refreshes drawn as one small inline SVG (no script, no external file): the rows
/// after each refresh as a line above, the rows each added, changed and removed as stacked bars
/// below, each mark with a title a browser shows on hover.
///
///     let plot = RefreshPlot(refreshes: [], label: "n5m4_mism").svg
///     print(plot.isEmpty)   // true: nothing to draw
public struct RefreshPlot {
    public var refreshes: [MirrorReport.Refresh]
    /// What the plot is of, for its accessible name.
    public var label: String

    public init(refreshes: [MirrorReport.Refresh], label: String) {
        self.refreshes = refreshes
        self.label = label
    }

    static let width = 640.0
    static let left = 92.0
    static let right = 12.0
    static let rowsTop = 14.0, rowsBottom = 74.0
    static let barsTop = 96.0, barsBottom = 164.0
    static let height = 184.0
    static let colors = (added: "#2e7d32", changed: "#ef8f00", removed: "#c62828", line: "#1f5fa8")

    /// The SVG element, or "" when there is no refresh to draw.
    public var svg: String {
        guard !refreshes.isEmpty else { return "" }
        let step = (Self.width - Self.left - Self.right) / Double(refreshes.count)
        func x(_ index: Int) -> Double { Self.left + step * (Double(index) + 0.5) }
        var parts: [String] = []
        let title = MarkupText.escaped(label)
        parts.append("<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Self.number(Self.width)) "
                     + "\(Self.number(Self.height))\" width=\"\(Self.number(Self.width))\" height=\"\(Self.number(Self.height))\" "
                     + "role=\"img\" aria-label=\"Rows and changes of \(title), refresh by refresh\">")
        parts.append("<title>Rows and changes of \(title), refresh by refresh</title>")
        parts.append("<rect x=\"0\" y=\"0\" width=\"\(Self.number(Self.width))\" height=\"\(Self.number(Self.height))\" fill=\"#ffffff\"/>")
        // Rows after each refresh, from 0 (a small change draws small).
        let rows = refreshes.map(\.rows)
        let high = rows.max() ?? 0
        func y(_ value: Int) -> Double {
            guard high > 0 else { return Self.rowsBottom }
            return Self.rowsBottom - (Self.rowsBottom - Self.rowsTop) * Double(value) / Double(high)
        }
        parts.append(axis(top: Self.rowsTop, bottom: Self.rowsBottom, high: Self.rowsText(high), low: "0"))
        let points = rows.indices.map { "\(Self.number(x($0))),\(Self.number(y(rows[$0])))" }.joined(separator: " ")
        parts.append("<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(Self.colors.line)\" stroke-width=\"2\"/>")
        for (index, refresh) in refreshes.enumerated() {
            parts.append("<circle cx=\"\(Self.number(x(index)))\" cy=\"\(Self.number(y(refresh.rows)))\" r=\"3\" fill=\"\(Self.colors.line)\">"
                         + "<title>\(MarkupText.escaped(refresh.at)): \(Self.rowsText(refresh.rows))</title></circle>")
        }
        // Rows added, changed and removed by each refresh.
        let totals = refreshes.map { ($0.added ?? 0) + ($0.changed ?? 0) + ($0.removed ?? 0) }
        let most = max(totals.max() ?? 0, 1)
        let counted = refreshes.contains { $0.added != nil || $0.changed != nil || $0.removed != nil }
        parts.append(axis(top: Self.barsTop, bottom: Self.barsBottom,
                          high: counted ? Self.rowsText(most) + " changed" : "not counted", low: "0"))
        let barWidth = max(1, min(24, step * 0.7))
        for (index, refresh) in refreshes.enumerated() {
            var bottom = Self.barsBottom
            let tip = "\(MarkupText.escaped(refresh.at)): " + Self.changeWords(refresh)
            parts.append("<g><title>\(tip)</title>")
            for (count, color) in [(refresh.added, Self.colors.added), (refresh.changed, Self.colors.changed),
                                   (refresh.removed, Self.colors.removed)] {
                guard let count, count > 0 else { continue }
                let height = max(1.5, (Self.barsBottom - Self.barsTop) * Double(count) / Double(most))
                bottom -= height
                parts.append("<rect x=\"\(Self.number(x(index) - barWidth / 2))\" y=\"\(Self.number(bottom))\" "
                             + "width=\"\(Self.number(barWidth))\" height=\"\(Self.number(height))\" fill=\"\(color)\"/>")
            }
            parts.append("</g>")
        }
        parts.append(legend())
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// `+2 added, 1 changed, 0 removed, 1 schema change`, or `not counted`.
    static func changeWords(_ refresh: MirrorReport.Refresh) -> String {
        if refresh.firstLoad, refresh.added == nil { return "first load, " + rowsText(refresh.rows) }
        var words = refresh.added == nil && refresh.changed == nil && refresh.removed == nil ? ["rows not counted"]
            : ["\(grouped(refresh.added ?? 0)) added", "\(grouped(refresh.changed ?? 0)) changed", "\(grouped(refresh.removed ?? 0)) removed"]
        if refresh.schemaChanges > 0 { words.append("\(refresh.schemaChanges) schema change\(refresh.schemaChanges == 1 ? "" : "s")") }
        return words.joined(separator: ", ")
    }

    private func axis(top: Double, bottom: Double, high: String, low: String?) -> String {
        var text = "<line x1=\"\(Self.number(Self.left - 4))\" y1=\"\(Self.number(bottom))\" x2=\"\(Self.number(Self.width - Self.right))\" "
            + "y2=\"\(Self.number(bottom))\" stroke=\"#b0b0b0\" stroke-width=\"1\"/>"
            + "<text x=\"\(Self.number(Self.left - 8))\" y=\"\(Self.number(top + 4))\" font-size=\"10\" text-anchor=\"end\" "
            + "fill=\"#444444\">\(MarkupText.escaped(high))</text>"
        if let low {
            text += "<text x=\"\(Self.number(Self.left - 8))\" y=\"\(Self.number(bottom))\" font-size=\"10\" text-anchor=\"end\" "
                + "fill=\"#444444\">\(MarkupText.escaped(low))</text>"
        }
        return text
    }

    private func legend() -> String {
        var x = Self.left
        var text = ""
        for (word, color) in [("added", Self.colors.added), ("changed", Self.colors.changed), ("removed", Self.colors.removed)] {
            text += "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(Self.height - 11))\" width=\"8\" height=\"8\" fill=\"\(color)\"/>"
                + "<text x=\"\(Self.number(x + 11))\" y=\"\(Self.number(Self.height - 3))\" font-size=\"10\" fill=\"#444444\">\(word)</text>"
            x += 64
        }
        return text
    }

    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// `1 row`, `1,234 rows`.
    static func rowsText(_ count: Int) -> String { grouped(count) + (count == 1 ? " row" : " rows") }

    /// `1,234,567`.
    static func grouped(_ value: Int) -> String { RowChangeCounts.grouped(value) }
}
