import SocloadCore
import CCurl
import Foundation

/// Downloads a URL with libcurl, handing the body to the caller chunk by chunk as it arrives:
/// nothing is buffered whole or written to disk.
///
/// gzip and deflate are accepted, redirects followed (bounded; secrets only to the named host),
/// stalled transfers abandoned. The
/// status is checked before any body reaches the caller: an error response becomes an
/// `HTTPError.status` carrying the portal's message.
public final class HTTPDownloader {
    private let options: HTTPOptions
    private let cancellation: LoadCancellation?

    public init(options: HTTPOptions = HTTPOptions(), cancellation: LoadCancellation? = nil) {
        _ = curlGlobalInitialization
        self.options = options
        self.cancellation = cancellation
    }

    /// Fetches `url` with GET. See `download(_:onResponse:onChunk:)` for a request.
    @discardableResult
    public func download(_ url: String,
                         onResponse: (HTTPResponseHead) throws -> Void = { _ in },
                         onChunk: (UnsafeRawBufferPointer) throws -> Void) throws -> HTTPResponseHead {
        try download(HTTPRequest(url: url), onResponse: onResponse, onChunk: onChunk)
    }

    /// Performs the request. `onResponse` sees the final status and headers of a successful
    /// response before the first chunk; `onChunk` sees each piece of its body. A 304 Not Modified
    /// is returned (its status in the head) without calling either. Redirects are followed here,
    /// one transfer per hop (see `HTTPRedirect`): the app token and credentials go only to the
    /// host the request named.
    @discardableResult
    public func download(_ request: HTTPRequest,
                         onResponse: (HTTPResponseHead) throws -> Void = { _ in },
                         onChunk: (UnsafeRawBufferPointer) throws -> Void) throws -> HTTPResponseHead {
        let origin = HTTPRedirect.Origin(request.url)
        var current = request
        var redirects = 0
        while true {
            let sendsSecrets = origin?.mayShareSecrets(with: HTTPRedirect.Origin(current.url)) ?? false
            let head = try transfer(current, sendsSecrets: sendsSecrets, onResponse: onResponse, onChunk: onChunk)
            options.onResponseHead?(head, current.url)
            guard let next = try HTTPRedirect.next(after: current, head: head) else { return head }
            redirects += 1
            if redirects > options.maximumRedirects {
                throw HTTPError.transport(code: Int32(CURLE_TOO_MANY_REDIRECTS.rawValue),
                                          message: "Maximum (\(options.maximumRedirects)) redirects followed", url: request.url)
            }
            current = next
        }
    }

    /// One request and its response (a redirect response is returned, not followed).
    private func transfer(_ request: HTTPRequest, sendsSecrets: Bool,
                          onResponse: (HTTPResponseHead) throws -> Void,
                          onChunk: (UnsafeRawBufferPointer) throws -> Void) throws -> HTTPResponseHead {
        let url = request.url
        if sendsSecrets, options.credentials != nil, !Self.mayCarryPassword(url) {
            throw HTTPError.insecureCredentials(url: url)
        }
        guard let handle = curl_easy_init() else {
            throw HTTPError.transport(code: -1, message: "libcurl could not start a transfer", url: url)
        }
        defer { curl_easy_cleanup(handle) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }

        return try withoutActuallyEscaping(onResponse) { onResponse in
            try withoutActuallyEscaping(onChunk) { onChunk in
                let state = TransferState(handle: handle, cancellation: cancellation,
                                          onResponse: onResponse, onChunk: onChunk)
                let context = Unmanaged.passUnretained(state).toOpaque()
                try withExtendedLifetime(state) {
                    configure(handle, request: request, sendsSecrets: sendsSecrets, context: context,
                              errorBuffer: errorBuffer, headerList: &headerList)
                    let code = curl_easy_perform(handle)
                    state.slowResponse.end()
                    try finish(code, state: state, url: url, errorBuffer: errorBuffer)
                }
                return state.head
            }
        }
    }

    /// A password goes only over https, or over plain http to this machine (tests, tunnels).
    static func mayCarryPassword(_ url: String) -> Bool {
        guard let components = URLComponents(string: url) else { return false }
        if components.scheme?.lowercased() == "https" { return true }
        return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(components.host?.lowercased() ?? "")
    }

    private func configure(_ handle: UnsafeMutableRawPointer, request: HTTPRequest, sendsSecrets: Bool,
                           context: UnsafeMutableRawPointer,
                           errorBuffer: UnsafeMutablePointer<CChar>,
                           headerList: inout UnsafeMutablePointer<curl_slist>?) {
        _ = socload_curl_setopt_string(handle, CURLOPT_URL, request.url)
        if let body = request.body {
            _ = socload_curl_setopt_long(handle, CURLOPT_POST, 1)
            _ = socload_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            body.withUnsafeBufferPointer { bytes in
                _ = socload_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
        }
        if sendsSecrets, let credentials = options.credentials {
            _ = socload_curl_setopt_long(handle, CURLOPT_HTTPAUTH, 1) // CURLAUTH_BASIC
            _ = socload_curl_setopt_string(handle, CURLOPT_USERNAME, credentials.username)
            _ = socload_curl_setopt_string(handle, CURLOPT_PASSWORD, credentials.password)
        }
        _ = socload_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = socload_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        _ = socload_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, options.connectTimeout)
        _ = socload_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, options.lowSpeedLimit)
        _ = socload_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, options.lowSpeedTime)
        _ = socload_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = socload_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        _ = socload_curl_setopt_string(handle, CURLOPT_USERAGENT, "socload/\(SocloadVersion.current)")
        _ = socload_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)

        var headers = (options.headers + request.headers).map { "\($0.name): \($0.value)" }
        if sendsSecrets, let token = options.appToken, !token.isEmpty { headers.append("X-App-Token: \(token)") }
        headers.append("Accept: application/json")
        for header in headers { headerList = curl_slist_append(headerList, header) }
        _ = socload_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)

        _ = socload_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, { data, size, count, context in
            guard let context else { return 0 }
            let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
            return state.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        _ = socload_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        _ = socload_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, { data, size, count, context in
            guard let context else { return 0 }
            let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
            state.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        })
        _ = socload_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        _ = socload_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = socload_curl_setopt_xferinfo_callback(handle, { context, _, received, _, _ in
            guard let context else { return 0 }
            let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
            state.slowResponse.observe(received: Int64(received))
            return state.cancellation?.isCancelled == true ? 1 : 0
        })
        _ = socload_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
    }

    private func finish(_ code: CURLcode, state: TransferState, url: String,
                        errorBuffer: UnsafeMutablePointer<CChar>) throws {
        if let error = state.thrownError { throw error }
        if let signal = cancellation?.signal { throw LoadError.interrupted(signal: signal) }
        guard code == CURLE_OK else {
            var message = String(cString: errorBuffer)
            if message.isEmpty { message = String(cString: curl_easy_strerror(code)) }
            throw HTTPError.transport(code: Int32(code.rawValue), message: message, url: url)
        }
        state.captureHeadIfNeeded()
        if state.head.statusCode == 304 { return }
        if HTTPRedirect.isRedirect(state.head) { return }
        guard TransferState.isSuccess(state.head.statusCode) else {
            let message = HTTPErrorBody.message(from: state.errorBody, contentType: state.head.contentType)
            throw HTTPError.status(code: state.head.statusCode, message: message, url: url,
                                   retryAfter: state.head.headers["retry-after"].flatMap(RetryPolicy.parseRetryAfter))
        }
        if !state.deliveredResponse {
            try state.onResponse(state.head)
        }
    }
}

/// libcurl's global set-up, done once before the first transfer.
private let curlGlobalInitialization: Void = {
    curl_global_init(Int(CURL_GLOBAL_DEFAULT))
}()

/// The state one transfer's C callbacks share.
private final class TransferState {
    /// Error bodies are kept only up to this size, for their message.
    static let errorBodyLimit = 64 * 1024

    let handle: UnsafeMutableRawPointer
    let cancellation: LoadCancellation?
    let onResponse: (HTTPResponseHead) throws -> Void
    let onChunk: (UnsafeRawBufferPointer) throws -> Void
    var head = HTTPResponseHead()
    var pendingHeaders: [String: String] = [:]
    var headCaptured = false
    var deliveredResponse = false
    var isErrorResponse = false
    var errorBody: [UInt8] = []
    var thrownError: (any Error)?
    /// A slow response lends the thread's job slot until it ends (`WaitLending`).
    var slowResponse = SlowResponseWatch()

    init(handle: UnsafeMutableRawPointer, cancellation: LoadCancellation?,
         onResponse: @escaping (HTTPResponseHead) throws -> Void,
         onChunk: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.handle = handle
        self.cancellation = cancellation
        self.onResponse = onResponse
        self.onChunk = onChunk
    }

    func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            pendingHeaders = [:] // a new response (after a redirect, or a 100 Continue)
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            pendingHeaders[name] = value
        }
    }

    /// 2xx, except 202 Accepted: Socrata sends it while a dataset is still being prepared, with
    /// no rows in the body.
    static func isSuccess(_ status: Int) -> Bool {
        (200..<300).contains(status) && status != 202
    }

    func captureHeadIfNeeded() {
        guard !headCaptured else { return }
        headCaptured = true
        var status = 0
        _ = socload_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        head = HTTPResponseHead(statusCode: status, headers: pendingHeaders)
        isErrorResponse = !Self.isSuccess(status)
    }

    /// Returns the number of bytes taken; anything else makes libcurl abort the transfer.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        captureHeadIfNeeded()
        if isErrorResponse {
            let room = max(0, Self.errorBodyLimit - errorBody.count)
            errorBody.append(contentsOf: bytes.prefix(room))
            return bytes.count
        }
        do {
            if !deliveredResponse {
                deliveredResponse = true
                try onResponse(head)
            }
            try onChunk(bytes)
            return bytes.count
        } catch {
            thrownError = error
            return 0
        }
    }
}
