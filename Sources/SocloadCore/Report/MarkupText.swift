/// Text put into HTML, SVG or XML (`MirrorReport`'s page and feed): the five markup characters
/// escaped, and what XML 1.0 cannot hold (control characters other than tab and line ends, and
/// U+FFFE, U+FFFF) replaced by U+FFFD, so a dataset's name or note from any portal leaves the
/// page valid and the feed well-formed.
///
///     print(MarkupText.escaped("<b>Tom & \"Jerry\"</b>"))   // &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;
public enum MarkupText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `url` when it is a web address (`http:` or `https:`), escaped for an attribute; nil for
    /// anything else (a `javascript:` link from a portal's metadata is never written).
    public static func link(_ url: String?) -> String? {
        guard let url, let colon = url.firstIndex(of: ":"), ["http", "https"].contains(url[..<colon].lowercased()),
              !url.contains(where: { $0.isWhitespace }) else { return nil }
        return escaped(url)
    }
}
