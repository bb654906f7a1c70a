import CZlib
import Foundation
import SocloadCore

/// What a file loaded by `fetch` was: its size, modification time and a checksum of its bytes
/// (CRC-32), kept in the catalog entry so the next load of the same file is skipped when all
/// three are the same (a project's refresh, `make`), as a portal's dataset is when its
/// `rowsUpdatedAt` is. `--force` loads it anyway. Kept as `file:SIZE:MTIME:CRC` (hex).
public struct FileSignature: Equatable, Sendable {
    var size: Int64
    /// Seconds since 1970, to the nanosecond the file system keeps.
    var modified: Double
    var checksum: UInt32

    /// The prefix of a signature in the catalog's `etag` column.
    public static let prefix = "file:"

    /// The signature of the regular file at `path`; nil for standard input, a FIFO or a device
    /// (read once, nothing to compare).
    init?(path: String) throws {
        guard let (size, modified) = Self.sizeAndTime(path) else { return nil }
        self.size = size
        self.modified = modified
        checksum = try Self.checksum(path)
    }

    init(size: Int64, modified: Double, checksum: UInt32) {
        self.size = size
        self.modified = modified
        self.checksum = checksum
    }

    /// As the catalog keeps it.
    init?(text: String) {
        guard text.hasPrefix(Self.prefix) else { return nil }
        let parts = text.dropFirst(Self.prefix.count).split(separator: ":")
        guard parts.count == 3, let size = Int64(parts[0]), let modified = Double(parts[1]),
              let checksum = UInt32(parts[2], radix: 16) else { return nil }
        self.init(size: size, modified: modified, checksum: checksum)
    }

    var text: String { "\(Self.prefix)\(size):\(modified):\(String(checksum, radix: 16))" }

    /// For a catalog entry: the signature of the file at `path` (nil: standard input, a FIFO).
    public static func text(ofFile path: String) throws -> String? {
        try FileSignature(path: path)?.text
    }

    /// True when the file at `path` is the one `recorded` describes: the same size and time
    /// (cheap), then the same bytes (read once).
    public static func unchanged(_ path: String, since recorded: String?) throws -> Bool {
        guard let recorded = recorded.flatMap(FileSignature.init(text:)), let (size, modified) = sizeAndTime(path),
              size == recorded.size, modified == recorded.modified else { return false }
        return try checksum(path) == recorded.checksum
    }

    /// The signature of a file made as it is read once for its load, rather than by reading it
    /// again after: the size and time it had when the read began, the checksum of the bytes
    /// read. It describes what was loaded: a file changed while it was read has another time
    /// (or size) by the next load, which then reads it again.
    ///
    ///     var reading = FileSignature.Reading(path: path)
    ///     try FileByteSource.read(path, cancellation: nil) { reading?.add($0) }
    ///     let signature = reading?.text // nil unless every byte was read
    public struct Reading: Sendable {
        private var signature: FileSignature
        private var bytesRead: Int64 = 0
        private var crc = crc32(0, nil, 0)

        /// nil for standard input, a FIFO or a device.
        public init?(path: String) {
            guard let (size, modified) = FileSignature.sizeAndTime(path) else { return nil }
            signature = FileSignature(size: size, modified: modified, checksum: 0)
        }

        public mutating func add(_ chunk: UnsafeRawBufferPointer) {
            guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            crc = crc32(crc, base, UInt32(chunk.count))
            bytesRead += Int64(chunk.count)
        }

        /// As the catalog keeps it, once as many bytes were read as the file had; else nil.
        public var text: String? {
            guard bytesRead == signature.size else { return nil }
            var whole = signature
            whole.checksum = UInt32(truncatingIfNeeded: crc)
            return whole.text
        }
    }

    private static func sizeAndTime(_ path: String) -> (Int64, Double)? {
        guard path != FileByteSource.standardInput else { return nil }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Int64(status.st_size), Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
    }

    private static func checksum(_ path: String) throws -> UInt32 {
        var crc = crc32(0, nil, 0)
        try FileByteSource.read(path, cancellation: nil) { chunk in
            guard let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            crc = crc32(crc, base, UInt32(chunk.count))
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
