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

    public init(appToken: String? = nil) {
        self.appToken = appToken
    }
}
