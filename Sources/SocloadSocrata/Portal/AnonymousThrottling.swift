import SocloadCore

/// A portal that kept answering 429 Too Many Requests, after every retry, to requests made
/// without an app token or a login: Socrata throttles anonymous requests, and a token lifts the
/// limit. The message says so and how to pass one; the error is the portal's, underneath.
public struct AnonymousRequestsThrottled: CategorizedError {
    public let underlying: any Error

    public var kind: FailureKind { .unavailable }

    public var description: String {
        "\(underlying) (anonymous requests are throttled: pass an app token, --app-token, $SOCRATA_APP_TOKEN or the credentials file)"
    }

    /// True for a 429 from the portal, on its own or as a page's.
    static func isThrottling(_ error: any Error) -> Bool {
        let http = (error as? HTTPError) ?? (error as? PageError)?.underlying
        if case .status(429, _, _, _)? = http { return true }
        return false
    }
}

extension DatasetLoader {
    /// `body`, with a 429 that outlasted the retries of an anonymous load explained
    /// (`AnonymousRequestsThrottled`); with a token or a login, the portal's error as it is.
    func explainingThrottling<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch where http.appToken == nil && http.credentials == nil && AnonymousRequestsThrottled.isThrottling(error) {
            throw AnonymousRequestsThrottled(underlying: error)
        }
    }
}
