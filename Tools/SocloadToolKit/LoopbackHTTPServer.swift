import Foundation
import Glibc

/// A real HTTP/1.1 server on 127.0.0.1 for tests: each route answers with a canned response,
/// sent with Content-Length, chunked, gzip-encoded, cut off midway, or as a redirect.
public final class LoopbackHTTPServer: @unchecked Sendable {
    // @unchecked Sendable: `routes` and `requests` are only touched under `lock`; the socket is
    // closed once, in `stop`, after which the accept thread exits.

    public enum Delivery: Sendable {
        case contentLength
        case chunked(chunkSize: Int)
        /// Sends the headers (with the full Content-Length) and this many body bytes, then closes.
        case dropAfter(bytes: Int)
        /// Sends the headers and nothing else, then holds the connection open for `seconds`.
        case stall(seconds: Double)
        /// Sends the headers and the first `bytes` of the body, then holds the connection open.
        case partialThenStall(bytes: Int, seconds: Double)
        /// Sends the body `chunk` bytes at a time, waiting `interval` seconds between them.
        case drip(chunk: Int, interval: Double)
        /// Chunked, the body made as it is sent, as a portal streams the rows of a query: the
        /// closure is called once and hands each piece to the function it is given (the
        /// response's `body` is not sent).
        case stream(@Sendable (_ send: ([UInt8]) -> Void) -> Void)
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        public var delivery: Delivery
        public var gzip: Bool

        public init(status: Int = 200, headers: [(String, String)] = [("Content-Type", "application/json")],
                    body: [UInt8], delivery: Delivery = .contentLength, gzip: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delivery = delivery
            self.gzip = gzip
        }

        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [("Location", location)], body: [])
        }
    }

    public struct Request: Sendable {
        public let method: String
        /// The path with its query string, as sent.
        public let path: String
        /// Header names lower-cased.
        public let headers: [String: String]
        public let body: [UInt8]

        /// The path without the query string.
        public var route: String { String(path.split(separator: "?", maxSplits: 1).first ?? "") }

        /// Query parameters, percent-decoded.
        public var query: [String: String] {
            guard let components = URLComponents(string: "http://x" + path) else { return [:] }
            var result: [String: String] = [:]
            for item in components.queryItems ?? [] { result[item.name] = item.value ?? "" }
            return result
        }
    }

    /// Answers requests before the fixed routes; nil falls through to them.
    public typealias Handler = @Sendable (Request) -> Response?
    private var handler: Handler?

    public func handle(with handler: @escaping Handler) {
        lock.withLock { self.handler = handler }
    }

    private let socket: Int32
    public let port: Int
    private let lock = NSLock()
    private var routes: [String: Response] = [:]
    private var receivedRequests: [Request] = []

    public init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public func route(_ path: String, _ response: Response) {
        lock.withLock { routes[path] = response }
    }

    public var requests: [Request] { lock.withLock { receivedRequests } }

    private var stopped = false

    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            // Wakes the accept loop, which closes the socket itself: closing it here would let a
            // new server reuse the descriptor number while this loop may still call accept on it.
            shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    private func acceptLoop() {
        defer { close(socket) }
        while true {
            let client = accept(socket, nil, nil)
            if client < 0 {
                if errno == EINTR, !lock.withLock({ stopped }) { continue }
                return
            }
            if lock.withLock({ stopped }) {
                close(client)
                return
            }
            let thread = Thread { [self] in
                handle(client)
                close(client)
            }
            thread.start()
        }
    }

    private func handle(_ client: Int32) {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.ends(with: [13, 10, 13, 10]) {
            guard recv(client, &byte, 1, 0) == 1 else { return }
            head.append(byte)
            if head.count > 65_536 { return }
            // Not HTTP (a TLS handshake, say): answer as an HTTP server does, with a 400.
            if head.count == 1, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) {
                write(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8), to: client)
                return
            }
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body: [UInt8] = []
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while body.count < length {
            var buffer = [UInt8](repeating: 0, count: min(65_536, length - body.count))
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return }
            body += buffer.prefix(count)
        }
        let path = String(parts[1])
        let request = Request(method: String(parts[0]), path: path, headers: headers, body: body)
        let (handler, fixed) = lock.withLock { () -> (Handler?, Response?) in
            receivedRequests.append(request)
            return (self.handler, routes[path] ?? routes[request.route])
        }
        let response = handler?(request) ?? fixed ?? Response(status: 404, body: Array("{\"code\":\"not_found\",\"error\":true,\"message\":\"no route\"}".utf8))
        send(response, to: client)
    }

    private func send(_ response: Response, to client: Int32) {
        let body = response.gzip ? Gzip.encode(response.body) : response.body
        var head = "HTTP/1.1 \(response.status) \(response.status == 200 ? "OK" : "Status")\r\nConnection: close\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.gzip { head += "Content-Encoding: gzip\r\n" }
        switch response.delivery {
        case .chunked(let size):
            head += "Transfer-Encoding: chunked\r\n\r\n"
            write(Array(head.utf8), to: client)
            var offset = 0
            while offset < body.count {
                let chunk = body[offset..<min(offset + size, body.count)]
                write(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10], to: client)
                offset += size
            }
            write(Array("0\r\n\r\n".utf8), to: client)
        case .contentLength:
            head += "Content-Length: \(body.count)\r\n\r\n"
            write(Array(head.utf8), to: client)
            write(body, to: client)
        case .stream(let produce):
            head += "Transfer-Encoding: chunked\r\n\r\n"
            write(Array(head.utf8), to: client)
            produce { piece in
                guard !piece.isEmpty else { return }
                self.write(Array(String(piece.count, radix: 16).utf8) + [13, 10], to: client)
                self.write(piece, to: client)
                self.write([13, 10], to: client)
            }
            write(Array("0\r\n\r\n".utf8), to: client)
        case .dropAfter(let count):
            head += "Content-Length: \(body.count)\r\n\r\n"
            write(Array(head.utf8) + body.prefix(count), to: client)
        case .stall(let seconds):
            head += "Content-Length: \(body.count)\r\n\r\n"
            write(Array(head.utf8), to: client)
            Thread.sleep(forTimeInterval: seconds)
        case .drip(let size, let interval):
            head += "Content-Length: \(body.count)\r\n\r\n"
            write(Array(head.utf8), to: client)
            var offset = 0
            while offset < body.count {
                write(Array(body[offset..<min(offset + size, body.count)]), to: client)
                offset += size
                Thread.sleep(forTimeInterval: interval)
            }
        case .partialThenStall(let count, let seconds):
            head += "Content-Length: \(body.count)\r\n\r\n"
            write(Array(head.utf8) + body.prefix(count), to: client)
            Thread.sleep(forTimeInterval: seconds)
        }
    }

    private func write(_ bytes: [UInt8], to client: Int32) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

/// gzip with deflate "stored" blocks: real gzip any client can inflate, in a few lines.
public enum Gzip {
    public static func encode(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]
        var offset = 0
        repeat {
            let length = Swift.min(65_535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            out.append(final)
            out += [UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8((~length >> 8) & 0xff)]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        let crc = crc32(data)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((crc >> UInt32(shift)) & 0xff)) }
        let size = UInt32(truncatingIfNeeded: data.count)
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((size >> UInt32(shift)) & 0xff)) }
        return out
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
