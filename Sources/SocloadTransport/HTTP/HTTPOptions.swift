import SocloadCore

/// How socload talks to a portal.
public struct HTTPOptions: Sendable {
    /// Sent as `X-App-Token`: raises Socrata's rate limits. Never printed or stored.
    public var appToken: String?
    /// Seconds to wait for a connection.
    public var connectTimeout = 30
    /// The transfer is abandoned when fewer than `lowSpeedLimit` bytes per second arrive for
    /// `lowSpeedTime` seconds (a stalled server).
    public var lowSpeedLimit = 1
    public var lowSpeedTime = 60
    /// Redirects followed before giving up.
    public var maximumRedirects = 10
    /// Extra request headers.
    public var headers: [(name: String, value: String)] = []
    /// HTTP basic authentication for private datasets. Sent only over https (or to this machine).
    public var credentials: Credentials?
    /// Sees the head of every response that arrives whole (redirects too) with the URL asked:
    /// how a caller hears what a portal says beside the data (`PortalNotice`).
    public var onResponseHead: (@Sendable (HTTPResponseHead, String) -> Void)?

    public init(appToken: String? = nil) {
        self.appToken = appToken
    }

    /// True with an app token or a login: what SODA3 needs, and what `--api auto` reads it with.
    public var hasCredentials: Bool { appToken != nil || credentials != nil }
}

/// A Socrata user name and password. Never printed, never stored.
public struct Credentials: Sendable, CustomStringConvertible {
    public let username: String
    public let password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// Redacted, so a stray print cannot leak the password.
    public var description: String { "Credentials(username: \(username), password: <redacted>)" }
}

/// One HTTP request: GET, or POST when it has a body.
public struct HTTPRequest: Sendable {
    public var url: String
    public var body: [UInt8]?
    public var headers: [(name: String, value: String)]

    public init(url: String, body: [UInt8]? = nil, headers: [(name: String, value: String)] = []) {
        self.url = url
        self.body = body
        self.headers = headers
    }
}
