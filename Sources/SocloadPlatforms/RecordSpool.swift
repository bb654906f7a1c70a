import Foundation
import SocloadCore
import SocloadTransport

/// A temporary NDJSON file of a dataset's records as the platform source writes them, one
/// object a line, read by the document job once every page is in (so a failed page leaves the
/// table untouched). Removed when closed.
final class RecordSpool {
    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private(set) var records = 0
    private(set) var bytes: Int64 = 0

    init() throws {
        let (descriptor, path) = try TemporaryFile.make(prefix: "socload-platform")
        self.path = path
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        buffer.reserveCapacity(1 << 20)
    }

    /// One record, as compact JSON on a line.
    func write(_ record: JSONValue) throws {
        buffer.append(contentsOf: record.jsonText.utf8)
        buffer.append(0x0A)
        records += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// One record already written as a line (its line end included).
    func writeLine(_ line: [UInt8]) throws {
        buffer.append(contentsOf: line)
        records += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Bytes that are already whole lines of records (`count` of them).
    func writeLines(_ bytes: UnsafeRawBufferPointer, count: Int) throws {
        buffer.append(contentsOf: bytes)
        records += count
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Starts again, empty (a retried download).
    func truncate() throws {
        buffer.removeAll(keepingCapacity: true)
        records = 0
        bytes = 0
        try handle.truncate(atOffset: 0)
        try handle.seek(toOffset: 0)
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        bytes += Int64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    func remove() {
        unlink(path)
    }
}
