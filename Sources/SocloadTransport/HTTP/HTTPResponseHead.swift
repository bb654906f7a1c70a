import SocloadCore

/// The status and headers of the final response (after redirects).
public struct HTTPResponseHead: Sendable, Equatable {
    public var statusCode: Int
    /// Header names lower-cased.
    public var headers: [String: String]

    public init(statusCode: Int = 0, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.headers = headers
    }

    public var contentLength: Int64? { headers["content-length"].flatMap { Int64($0) } }
    public var etag: String? { headers["etag"] }
    public var lastModified: String? { headers["last-modified"] }
    public var contentType: String? { headers["content-type"] }
}
