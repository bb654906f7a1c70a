import CZlib
import Foundation
import Glibc
import SocloadCore

/// A gzip file written a chunk at a time (the download cache keeps each version compressed).
final class GzipFileWriter {
    private var stream = z_stream()
    private let descriptor: Int32
    private let path: String
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    private var isOpen = true

    /// Creates (or truncates) `path`, compressing at zlib's `level` (1 fastest, 9 smallest).
    init(path: String, level: Int32 = 6) throws {
        self.path = path
        descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw GzipFileError(path: path, reason: String(cString: strerror(errno))) }
        guard socload_deflate_init_gzip(&stream, level) == Z_OK else {
            close(descriptor)
            throw GzipFileError(path: path, reason: "zlib cannot start compressing")
        }
    }

    deinit {
        if isOpen {
            deflateEnd(&stream)
            close(descriptor)
        }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(chunk.count)
        try pump(flush: Z_NO_FLUSH)
    }

    /// Ends the gzip stream and closes the file.
    func finish() throws {
        stream.next_in = nil
        stream.avail_in = 0
        try pump(flush: Z_FINISH)
        deflateEnd(&stream)
        isOpen = false
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            throw GzipFileError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private func pump(flush: Int32) throws {
        while true {
            let (status, produced) = output.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                let status = deflate(&stream, flush)
                return (status, buffer.count - Int(stream.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw GzipFileError(path: path, reason: "zlib error \(status)")
            }
            var offset = 0
            while offset < produced {
                let count = output.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, produced - offset) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw GzipFileError(path: path, reason: String(cString: strerror(errno)))
                }
                offset += count
            }
            if flush == Z_FINISH ? status == Z_STREAM_END : stream.avail_in == 0 && stream.avail_out != 0 { return }
        }
    }
}

/// A gzip file read back a chunk at a time.
public enum GzipFileReader {
    public static func read(_ path: String, cancellation: LoadCancellation?,
                     _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        var stream = z_stream()
        guard socload_inflate_init_gzip(&stream) == Z_OK else { throw GzipFileError(path: path, reason: "zlib cannot start") }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        try FileByteSource.read(path, cancellation: cancellation) { chunk in
            guard let base = chunk.baseAddress, !ended else { return }
            stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(chunk.count)
            while stream.avail_in > 0, !ended {
                let (status, produced) = output.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, buffer.count - Int(stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > 0) else {
                    throw GzipFileError(path: path, reason: "not a whole gzip file (zlib error \(status))")
                }
                if produced > 0 { try output.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) } }
                ended = status == Z_STREAM_END
            }
        }
        guard ended else { throw GzipFileError(path: path, reason: "the gzip file ends early") }
    }
}

/// A cache file that cannot be written or read.
public struct GzipFileError: CategorizedError {
    public let path: String
    public let reason: String
    public var kind: FailureKind { .database }
    public var description: String { "\(path): \(reason)" }
}
