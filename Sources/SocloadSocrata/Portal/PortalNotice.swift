import Foundation
import SocloadCore

/// What a portal says beside the data, in a response's headers: a warning (`X-SODA2-Warning`,
/// `Warning`), or that the API is deprecated (`Deprecation`) and when it goes (`Sunset`). Socrata
/// sends them as it retires an API (the rows.json export from 2026-10-01); socload passes them on.
///
///     var http = HTTPOptions()
///     http.onResponseHead = { head, url in
///         for notice in PortalNotice.notices(in: head, url: url) where notice.isForPeople { print(notice) }
///     }
public struct PortalNotice: Sendable, Hashable, CustomStringConvertible {
    /// The portal's host (`data.cityofchicago.org`).
    public let host: String
    /// The header it came in.
    public let header: String
    public let text: String
    /// False for the deprecation of the `X-SODA2-Fields` and `X-SODA2-Types` headers, which every
    /// SODA3 page carries: socload reads them only when a portal gives no description, so it is
    /// nothing a user needs to act on.
    public let isForPeople: Bool

    /// `data.example.org says: this API is deprecated (Deprecation: @1696118400)`.
    public var description: String { "\(host) says: \(text) (\(header))" }

    /// The notices of one response, in a fixed order.
    public static func notices(in head: HTTPResponseHead, url: String) -> [PortalNotice] {
        let host = URLComponents(string: url)?.host ?? url
        var notices: [PortalNotice] = []
        func add(_ header: String, _ text: String, forPeople: Bool = true) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return }
            notices.append(PortalNotice(host: host, header: header, text: trimmed, isForPeople: forPeople))
        }
        if let warning = head.headers["x-soda2-warning"] {
            add("X-SODA2-Warning", warning, forPeople: !isAboutTheFieldHeaders(warning))
        }
        if let deprecation = head.headers["deprecation"] {
            add("Deprecation: \(deprecation)", "this API is deprecated")
        }
        if let sunset = head.headers["sunset"] {
            add("Sunset", "this API is withdrawn from \(sunset)")
        }
        if let warning = head.headers["warning"] {
            // RFC 7234: `299 - "text"`; the text in quotes when there is one.
            let quoted = warning.split(separator: "\"", omittingEmptySubsequences: false)
            add("Warning", quoted.count >= 3 ? String(quoted[1]) : warning)
        }
        return notices
    }

    /// The deprecation of the `X-SODA2-Fields`/`-Types` headers (socload reads the view's columns).
    static func isAboutTheFieldHeaders(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("x-soda2-fields") || lowered.contains("x-soda2-types")
    }
}
