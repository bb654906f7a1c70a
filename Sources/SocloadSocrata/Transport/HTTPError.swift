/// A failed HTTP transfer: the portal answered with an error status, or the network failed.
public enum HTTPError: CategorizedError, Equatable {
    /// The server answered with a non-success status; `message` is Socrata's, when it gave one.
    case status(code: Int, message: String?, url: String)
    /// The transfer itself failed (DNS, connection, timeout, reset...): libcurl's code and message.
    case transport(code: Int32, message: String, url: String)
    /// The body would inflate beyond what socload accepts.
    case bodyTooLarge(limit: Int64, url: String)

    public var description: String {
        switch self {
        case let .status(code, message, url):
            var text = "HTTP \(code) \(HTTPStatus.reason(code)) from \(url)"
            if let message, !message.isEmpty { text += ": \(message)" }
            return text
        case let .transport(_, message, url):
            return "\(message) (\(url))"
        case let .bodyTooLarge(limit, url):
            return "the response from \(url) is larger than \(limit) bytes"
        }
    }

    public var kind: FailureKind { .unavailable }
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
