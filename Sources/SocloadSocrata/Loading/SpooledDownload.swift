import Foundation
import Glibc
import SocloadCore

/// A rows.json download started before its load may write: the body goes to a temporary file as
/// fast as the server sends it, so a dataset waiting for its turn at the database (SQLite has
/// one writer) never keeps the server waiting until it gives up. The load then reads the file,
/// following it while the download is still going: memory stays flat and nothing waits for the
/// whole body.
///
/// The file is unlinked as soon as it is opened, so it goes away with the last descriptor, even
/// when the process is killed. A spooled download is read once: a retry of the load (a failed
/// transfer) downloads again directly.
public final class SpooledDownload: @unchecked Sendable {
    private enum Outcome {
        case finished(HTTPResponseHead)
        case failed(any Error)
    }

    private let condition = NSCondition()
    private let writeDescriptor: Int32
    private let readDescriptor: Int32
    private var written: Int64 = 0
    private var response: HTTPResponseHead?
    private var outcome: Outcome?
    private var claimed = false
    private var abandoned = false
    public let url: String

    /// Starts downloading `request` on a thread of its own into a file in `directory` (the
    /// system's temporary directory by default).
    public init(_ request: HTTPRequest, http: HTTPOptions, cancellation: LoadCancellation?,
                directory: String = NSTemporaryDirectory()) throws {
        url = request.url
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
            + Array("socload-spool-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw LoadError.unreadableFile(path: directory, reason: "no temporary file for a download: " + String(cString: strerror(errno)))
        }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        readDescriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        unlink(path)
        writeDescriptor = descriptor
        guard readDescriptor >= 0 else {
            close(descriptor)
            throw LoadError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        let thread = Thread { [self] in download(request, http: http, cancellation: cancellation) }
        thread.name = "socload spool"
        thread.start()
    }

    deinit {
        close(writeDescriptor)
        close(readDescriptor)
    }

    /// True the first time only: the load that reads the spool claims it.
    func claim() -> Bool {
        condition.withLock {
            defer { claimed = true }
            return !claimed
        }
    }

    /// Bytes received so far.
    public var bytesSpooled: Int64 { condition.withLock { written } }

    /// Returns when the download has ended, whichever way (its failure is the reading load's),
    /// or throws when `cancellation` is set first.
    public func waitForEnd(cancellation: LoadCancellation?) throws {
        while true {
            try cancellation?.check()
            let ended = condition.withLock { () -> Bool in
                if outcome == nil { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1)) }
                return outcome != nil
            }
            if ended { return }
        }
    }

    /// Stops the download (the load it was for will not run).
    public func abandon() {
        condition.withLock {
            abandoned = true
            condition.broadcast()
        }
    }

    private func download(_ request: HTTPRequest, http: HTTPOptions, cancellation: LoadCancellation?) {
        struct Abandoned: Error {}
        let result: Outcome
        do {
            let head = try HTTPDownloader(options: http, cancellation: cancellation).download(request, onResponse: { head in
                condition.withLock { response = head }
            }, onChunk: { chunk in
                if condition.withLock({ abandoned }) { throw Abandoned() }
                var offset = 0
                while offset < chunk.count {
                    let count = Glibc.write(writeDescriptor, chunk.baseAddress! + offset, chunk.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        throw LoadError.unreadableFile(path: "the download spool", reason: String(cString: strerror(errno)))
                    }
                    offset += count
                }
                condition.withLock {
                    written += Int64(chunk.count)
                    condition.broadcast()
                }
            })
            result = .finished(head)
        } catch {
            result = .failed(error)
        }
        condition.withLock {
            outcome = result
            condition.broadcast()
        }
    }

    /// Reads the body as it arrives, to its end: `onResponse` sees the response before the
    /// first chunk. The download's failure is this call's; a 304 comes back as its head.
    func read(cancellation: LoadCancellation?, onResponse: (HTTPResponseHead) -> Void,
              _ consume: (UnsafeRawBufferPointer) throws -> Void) throws -> HTTPResponseHead {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileByteSource.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        var announced = false
        while true {
            try cancellation?.check()
            let (available, head, ended) = condition.withLock { () -> (Int64, HTTPResponseHead?, Outcome?) in
                if written == offset, outcome == nil { _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1)) }
                return (written, response, outcome)
            }
            if !announced, let head {
                onResponse(head)
                announced = true
            }
            if available > offset {
                let wanted = Int(min(Int64(FileByteSource.chunkSize), available - offset))
                let count = pread(readDescriptor, buffer.baseAddress, wanted, off_t(offset))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw LoadError.unreadableFile(path: "the download spool", reason: String(cString: strerror(errno)))
                }
                try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                offset += Int64(count)
                continue
            }
            switch ended {
            case .finished(let head)?: return head
            case .failed(let error)?: throw error
            case nil: continue
            }
        }
    }
}
