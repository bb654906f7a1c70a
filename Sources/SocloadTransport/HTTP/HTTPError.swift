import SocloadCore

/// A failed HTTP transfer: the portal answered with an error status, or the network failed.
public enum HTTPError: CategorizedError, Equatable {
    /// The server answered with a non-success status; `message` is Socrata's, when it gave one.
    case status(code: Int, message: String?, url: String, retryAfter: Double? = nil)
    /// The transfer itself failed (DNS, connection, timeout, reset...): libcurl's code and message.
    case transport(code: Int32, message: String, url: String)
    /// The body would inflate beyond what socload accepts.
    case bodyTooLarge(limit: Int64, url: String)
    /// A password would travel over plain http to another machine.
    case insecureCredentials(url: String)

    /// The message, with any password in the URL (or the portal's message) taken out.
    public var description: String { CredentialRedaction.text(unredactedDescription) }

    private var unredactedDescription: String {
        switch self {
        case let .status(code, message, url, _):
            var text = "HTTP \(code) \(HTTPStatus.reason(code)) from \(url)"
            if let message, !message.isEmpty { text += ": \(message)" }
            return text
        case let .transport(code, message, url):
            // A TLS failure (CURLE_SSL_CONNECT_ERROR) on https: most often a server that speaks plain http
            // (`--domain 127.0.0.1:8765` without a scheme means https).
            let hint = (code == 35 || message.contains("SSL")) && url.lowercased().hasPrefix("https://")
                ? " (for a plain http server write http://HOST:PORT)" : ""
            return "\(message)\(hint) (\(url))"
        case let .bodyTooLarge(limit, url):
            return "the response from \(url) is larger than \(limit) bytes"
        case let .insecureCredentials(url):
            return "refusing to send a password over plain http to \(url): use https"
        }
    }

    /// The wait the server asked for with `Retry-After`, in seconds.
    public var retryAfter: Double? {
        if case .status(_, _, _, let seconds) = self { return seconds }
        return nil
    }

    public var kind: FailureKind {
        if case .insecureCredentials = self { return .usage }
        return .unavailable
    }

    /// True for failures that may pass: rate limiting (429), a server's internal error (500:
    /// portals answer a passing backend failure so; a wrong query is a 400), gateway errors (502,
    /// 503, 504), a dataset still being prepared (202), and connections reset or timed out.
    public var isRetryable: Bool {
        switch self {
        case .status(let code, _, _, _):
            return [202, 429, 500, 502, 503, 504].contains(code)
        case .transport(let code, _, _):
            // CURLE_PARTIAL_FILE, CURLE_OPERATION_TIMEDOUT, CURLE_GOT_NOTHING, CURLE_SEND_ERROR,
            // CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM.
            return [18, 28, 52, 55, 56, 16, 92].contains(code)
        case .bodyTooLarge, .insecureCredentials:
            return false
        }
    }
}

/// Reason phrases for the statuses a portal commonly returns.
enum HTTPStatus {
    static func reason(_ code: Int) -> String {
        switch code {
        case 200: return "OK"
        case 202: return "Accepted"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Error"
        }
    }
}
