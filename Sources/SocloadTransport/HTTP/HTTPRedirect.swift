import SocloadCore
import Foundation

/// Redirects, followed by socload rather than libcurl, so that what identifies the user goes only
/// where the user sent it: libcurl forwards custom headers such as `X-App-Token` to any host a
/// redirect names. Credentials and the app token go to the host (and port) of the URL asked for,
/// and never from https down to plain http; other hosts get the request without them.
enum HTTPRedirect {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// True for a response that names where to go next: a redirect status with a Location.
    static func isRedirect(_ head: HTTPResponseHead) -> Bool {
        statuses.contains(head.statusCode) && !(head.headers["location"] ?? "").isEmpty
    }

    /// Scheme, host and port of a URL (port made explicit), to compare where requests go.
    struct Origin: Equatable {
        let scheme: String
        let host: String
        let port: Int

        init?(_ url: String) {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                  let host = components.host?.lowercased() else { return nil }
            self.scheme = scheme
            self.host = host
            port = components.port ?? (scheme == "https" ? 443 : 80)
        }

        /// True when what identifies the user at `self` may be sent to `other`: same host and
        /// port, and not over plain http after https.
        func mayShareSecrets(with other: Origin?) -> Bool {
            guard let other else { return false }
            return host == other.host && port == other.port && !(scheme == "https" && other.scheme == "http")
        }
    }

    /// The request a redirect response asks for next: nil when `head` is not a redirect. A 303,
    /// and a 301 or 302 after a POST, become a GET as browsers and libcurl do; 307 and 308 repeat
    /// the request. Throws for a Location that is not an http(s) URL.
    static func next(after request: HTTPRequest, head: HTTPResponseHead) throws -> HTTPRequest? {
        guard isRedirect(head), let location = head.headers["location"] else { return nil }
        guard let base = URL(string: request.url), let target = URL(string: location, relativeTo: base)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPError.transport(code: 1, message: "a redirect to '\(location)', which is not an http(s) URL", url: request.url)
        }
        var next = request
        next.url = target.absoluteString
        if head.statusCode == 303 || ([301, 302].contains(head.statusCode) && request.body != nil) {
            next.body = nil
        }
        return next
    }
}
