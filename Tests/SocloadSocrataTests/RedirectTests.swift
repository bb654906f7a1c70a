import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// Redirects carry the app token and the login only to the host the request named (same host
/// and port); another host, or plain http after https, gets the request without them.
final class RedirectTests: XCTestCase {
    /// The requests a server received, in order.
    final class RequestLog: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [LoopbackHTTPServer.Request] = []
        func append(_ request: LoopbackHTTPServer.Request) { lock.withLock { requests.append(request) } }
        var all: [LoopbackHTTPServer.Request] { lock.withLock { requests } }
    }

    private func logging(_ server: LoopbackHTTPServer, _ log: RequestLog) {
        server.handle { request in
            log.append(request)
            return nil
        }
    }

    private var options: HTTPOptions {
        var options = HTTPOptions(appToken: "secret-token")
        options.credentials = Credentials(username: "ann", password: "pw")
        return options
    }

    private func body(_ url: String, request: HTTPRequest? = nil) throws -> String {
        var bytes: [UInt8] = []
        try HTTPDownloader(options: options).download(request ?? HTTPRequest(url: url)) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testAnotherHostGetsNeitherTheTokenNorTheLogin() throws {
        let named = try LoopbackHTTPServer()
        let other = try LoopbackHTTPServer()
        defer { named.stop(); other.stop() }
        let namedLog = RequestLog(), otherLog = RequestLog()
        logging(named, namedLog)
        logging(other, otherLog)
        named.route("/data", .redirect(to: "\(other.baseURL)/data"))
        other.route("/data", .init(body: Array("[1]".utf8)))

        XCTAssertEqual(try body("\(named.baseURL)/data"), "[1]")
        XCTAssertEqual(namedLog.all.first?.headers["x-app-token"], "secret-token")
        XCTAssertNotNil(namedLog.all.first?.headers["authorization"])
        XCTAssertEqual(otherLog.all.count, 1)
        XCTAssertNil(otherLog.all.first?.headers["x-app-token"], "the token went to another host")
        XCTAssertNil(otherLog.all.first?.headers["authorization"], "the login went to another host")
    }

    func testTheSameHostKeepsThemAcrossRedirects() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let log = RequestLog()
        logging(server, log)
        server.route("/first", .redirect(to: "/second", status: 301))
        server.route("/second", .redirect(to: "\(server.baseURL)/data", status: 307))
        server.route("/data", .init(body: Array("[2]".utf8)))
        XCTAssertEqual(try body("\(server.baseURL)/first"), "[2]")
        XCTAssertEqual(log.all.map(\.route), ["/first", "/second", "/data"])
        XCTAssertEqual(log.all.map { $0.headers["x-app-token"] }, ["secret-token", "secret-token", "secret-token"])
    }

    func testMethodsAcrossRedirects() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let log = RequestLog()
        logging(server, log)
        server.route("/see-other", .redirect(to: "/data", status: 303))
        server.route("/temporary", .redirect(to: "/data", status: 307))
        server.route("/data", .init(body: Array("[3]".utf8)))
        let post = Array(#"{"query":"select *"}"#.utf8)
        _ = try body("", request: HTTPRequest(url: "\(server.baseURL)/see-other", body: post))
        _ = try body("", request: HTTPRequest(url: "\(server.baseURL)/temporary", body: post))
        XCTAssertEqual(log.all.map { "\($0.method) \($0.route) \($0.body.count)" },
                       ["POST /see-other \(post.count)", "GET /data 0", "POST /temporary \(post.count)", "POST /data \(post.count)"])
    }

    func testLoopsAndOtherSchemesFail() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.route("/loop", .redirect(to: "/loop"))
        server.route("/file", .redirect(to: "file:///etc/passwd"))
        XCTAssertThrowsError(try body("\(server.baseURL)/loop")) { error in
            XCTAssertTrue("\(error)".contains("Maximum (10) redirects followed"), "\(error)")
        }
        XCTAssertThrowsError(try body("\(server.baseURL)/file")) { error in
            XCTAssertTrue("\(error)".contains("a redirect to 'file:///etc/passwd', which is not an http(s) URL"), "\(error)")
        }
    }
}
