import SocloadCore
import SocloadSocrata

extension Project.Connection {
    /// The HTTP options of this connection: its app token, else `$SOCRATA_APP_TOKEN`, else the
    /// user's private credentials file's (`CredentialsFile`, read only when neither a token nor
    /// `$SOCRATA_USERNAME` is given); a login from `$SOCRATA_USERNAME` and `$SOCRATA_PASSWORD`,
    /// else the file's; `$SOCLOAD_LOW_SPEED_TIME` seconds of a stalled
    /// transfer before it is given up. Throws when the credentials file is open to others.
    public func http(environment: [String: String]) throws(CredentialsFileError) -> HTTPOptions {
        let token = appToken ?? environment["SOCRATA_APP_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let username = environment["SOCRATA_USERNAME"].flatMap { $0.isEmpty ? nil : $0 }
        // Credentials given as options or variables come first: the file is not read at all then.
        let file = token != nil || username != nil ? nil : try CredentialsFile.load(environment: environment)
        var http = HTTPOptions(appToken: token ?? file?.appToken.flatMap { $0.isEmpty ? nil : $0 })
        if let seconds = environment["SOCLOAD_LOW_SPEED_TIME"].flatMap(Int.init) { http.lowSpeedTime = seconds }
        if let username {
            http.credentials = Credentials(username: username, password: environment["SOCRATA_PASSWORD"] ?? "")
        } else if let username = file?.username, !username.isEmpty {
            http.credentials = Credentials(username: username, password: file?.password ?? "")
        }
        return http
    }

    /// The retry policy of this connection: its retries, and `$SOCLOAD_RETRY_DELAY` as the
    /// first wait in seconds (tests set it low).
    public func retry(environment: [String: String]) -> RetryPolicy {
        var retry = RetryPolicy()
        if let retries { retry.maximumRetries = retries }
        if let delay = environment["SOCLOAD_RETRY_DELAY"].flatMap(Double.init) {
            retry.baseDelay = delay
            retry.maximumRetryAfter = max(delay * 10, 0)
        }
        return retry
    }
}
