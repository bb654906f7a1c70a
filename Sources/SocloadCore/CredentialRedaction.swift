import Foundation

/// The one place a password is taken out of text that is shown, stored or logged: URLs
/// (`https://ana:secret@host/...`, `postgresql://ana:secret@db/x?password=secret`) lose the
/// password of their user part and their `password=` / `$$app_token=` query parameters. The
/// user name stays, so a message still says who connected.
///
///     let shown = CredentialRedaction.url("https://ana:pw@data.example.org/x.json")  // "https://ana@data.example.org/x.json"
///     let message = CredentialRedaction.text("HTTP 404 from http://a:b@h/x")          // "HTTP 404 from http://a@h/x"
public enum CredentialRedaction {
    /// Query parameters that carry a secret, lowercased.
    static let secretParameters = ["password", "$$app_token", "app_token", "sslpassword"]

    /// One URL without its secrets.
    /// `url` without its user name and password (the query as it is), for a place that shows
    /// where a document came from.
    public static func withoutCredentials(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.user != nil || components.password != nil
        else { return url }
        components.user = nil
        components.password = nil
        return components.string ?? url
    }

    public static func url(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let (userInfo, rest) = splitUserInfo(url[schemeEnd.upperBound...])
        var path = rest
        var tail: Substring = ""
        if let mark = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            tail = rest[mark...]
            path = rest[..<mark]
        }
        let user = userInfo.map { info in (info.firstIndex(of: ":").map { info[..<$0] } ?? info) + "@" } ?? ""
        return String(url[..<schemeEnd.upperBound]) + user + path + query(tail)
    }

    /// The user part of what follows a URL's `://` (`ana:p@ss` of `ana:p@ss@db/x`: a password
    /// typed unencoded may hold `@`, `/`, `?` or `#`, so the user part ends at the last `@`
    /// before the host, not the first), and the rest (`db/x`). Nil when it has no user part.
    public static func splitUserInfo(_ afterScheme: Substring) -> (userInfo: Substring?, rest: Substring) {
        // The host comes after the last @ that stands before the query; a path or a query
        // rarely holds an @ of its own, a password typed as it is often does.
        let queryStart = afterScheme.firstIndex(of: "?") ?? afterScheme.endIndex
        guard let at = afterScheme[..<queryStart].lastIndex(of: "@") else {
            // No @ before the query: an @ after it is a query value, unless the host has none.
            return (nil, afterScheme)
        }
        // An @ in the path (after `host/` or `host:port/`) is not the user part's end.
        let beforeAt = afterScheme[..<at]
        if let slash = beforeAt.firstIndex(of: "/") {
            let host = beforeAt[..<slash]
            let port = host.firstIndex(of: ":").map { host[host.index(after: $0)...] }
            if !host.contains("@"), port.map({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigitCharacter) }) ?? true {
                return (nil, afterScheme)
            }
        }
        return (beforeAt, afterScheme[afterScheme.index(after: at)...])
    }

    /// A `?query#fragment` without its secret parameters.
    private static func query(_ tail: Substring) -> String {
        guard tail.first == "?" else { return String(tail) }
        var query = tail.dropFirst()
        var fragment: Substring = ""
        if let hash = query.firstIndex(of: "#") {
            fragment = query[hash...]
            query = query[..<hash]
        }
        let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { parameter in
            let name = (parameter.split(separator: "=", maxSplits: 1).first ?? "").lowercased()
            return !secretParameters.contains(name.removingPercentEscapesOfDollars)
        }
        return (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + fragment
    }

    /// Free text (a message, a progress line) with every URL in it redacted. A URL runs from its
    /// scheme to the first space, quote, or angle bracket.
    public static func text(_ text: String) -> String {
        guard text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let schemeEnd = rest.range(of: "://") {
            var start = schemeEnd.lowerBound
            while start > rest.startIndex {
                let before = rest[rest.index(before: start)]
                guard before.isLetter || before.isNumber || before == "+" || before == "-" || before == "." else { break }
                start = rest.index(before: start)
            }
            let end = rest[schemeEnd.upperBound...].firstIndex { Self.endsURL($0) } ?? rest.endIndex
            result += rest[..<start]
            result += url(String(rest[start..<end]))
            rest = rest[end...]
        }
        return result + rest
    }

    private static func endsURL(_ character: Character) -> Bool {
        character.isWhitespace || "\"'<>`".contains(character)
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}

private extension String {
    /// `%24%24app_token` as `$$app_token`, so an encoded name is recognised too.
    var removingPercentEscapesOfDollars: String { replacingOccurrences(of: "%24", with: "$") }
}
