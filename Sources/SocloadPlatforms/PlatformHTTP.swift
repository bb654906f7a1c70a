import Foundation
import SocloadCore
import SocloadFiles
import SocloadTransport

/// The requests a platform source makes, through the load's HTTP options, retries and
/// cancellation: a whole JSON answer (a description, a page), or a body streamed chunk by chunk
/// (an export). An answer that is not JSON, or stops before its JSON does, is a `PlatformError`.
struct PlatformHTTP {
    let http: HTTPOptions
    let retry: RetryPolicy
    let cancellation: LoadCancellation?
    let onRetry: (@Sendable (String) -> Void)?
    let platform: DataPlatform

    private func retryNotice(_ error: HTTPError, _ attempt: Int, _ wait: Double) {
        onRetry?("\(error); retry \(attempt) of \(retry.maximumRetries) in \(String(format: "%.1f", wait)) s")
    }
    /// The largest answer read whole (a page): larger ones are a platform's exports, streamed.
    static let largestAnswer = 512 << 20

    /// The JSON value `url` answers with.
    func json(_ url: String) throws -> JSONValue {
        try parse(try body(url), from: url)
    }

    /// The body `url` answers with, whole.
    func body(_ url: String) throws -> [UInt8] {
        let downloader = HTTPDownloader(options: http, cancellation: cancellation)
        return try retry.run(cancellation: cancellation, onRetry: retryNotice) { () throws -> [UInt8] in
            var body: [UInt8] = []
            try downloader.download(url) { chunk in
                body.append(contentsOf: chunk)
                if body.count > Self.largestAnswer { throw HTTPError.bodyTooLarge(limit: Int64(Self.largestAnswer), url: url) }
            }
            return body
        }
    }

    /// The JSON value of `body`, which `url` sent.
    func parse(_ body: [UInt8], from url: String) throws -> JSONValue {
        do {
            return try JSONValueParser.parse(body)
        } catch .unexpectedEnd {
            throw PlatformError(platform, url: url, .unreadable(body.isEmpty ? "the body is empty"
                : "the body ends after \(body.count) bytes, before its JSON does (a transfer cut short)"))
        } catch {
            let start = String(decoding: body.prefix(60), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            throw PlatformError(platform, url: url, .unreadable("\(error) (it begins \(JSONValue.quoted(start)))"))
        }
    }

    /// Streams `url`'s body to `onChunk`, retried whole (`restart` is called before each try).
    func stream(_ url: String, restart: () throws -> Void, onChunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        let downloader = HTTPDownloader(options: http, cancellation: cancellation)
        try retry.run(cancellation: cancellation, onRetry: retryNotice) {
            try restart()
            try downloader.download(url, onChunk: onChunk)
        }
    }
}

/// A URL with its query: `base` and the items, each value percent-encoded.
func platformURL(_ base: String, _ items: [(String, String)]) -> String {
    var allowed = CharacterSet.urlQueryAllowed
    allowed.remove(charactersIn: "&=+?#/:,;$@")
    let query = items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }.joined(separator: "&")
    return query.isEmpty ? base : base + (base.contains("?") ? "&" : "?") + query
}

extension JSONValue {
    var stringValue: String? {
        switch self {
        case .string(let text): return text
        case .number(let digits): return digits
        default: return nil
        }
    }
    var intValue: Int? {
        switch self {
        case .number(let digits): return Int(digits) ?? Double(digits).flatMap { $0 == $0.rounded() && abs($0) < 9e18 ? Int($0) : nil }
        case .string(let text): return Int(text)
        default: return nil
        }
    }
    var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
    var members: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }
    /// A string member that is set and not empty.
    func text(_ key: String) -> String? {
        guard let text = self[key]?.stringValue, !text.isEmpty else { return nil }
        return text
    }
}
