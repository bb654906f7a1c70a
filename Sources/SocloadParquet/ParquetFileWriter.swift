import Foundation
import Glibc
import SocloadCore

/// A Parquet file written row by row: values gathered per column until a row group is full
/// (`rowGroupRows`, else about `rowGroupBytes` of values), then written as compressed pages,
/// the footer last. The file is written under a temporary name beside `path` and renamed into
/// place by `finish`, so a reader never sees half a file and a failed export leaves the old one
/// (the folders it goes in are made when missing).
///
///     let writer = try ParquetFileWriter(path: "/tmp/out.parquet",
///                                        fields: [.column("name", .byteArray, .string), .column("n", .int64, .int64)])
///     try writer.append([.string("a"), .int64(1)])
///     try writer.finish()
public final class ParquetFileWriter {
    /// One value of a row, for the column at its place.
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case int32(Int32)
        case int64(Int64)
        case double(Double)
        case string(String)
        case bytes([UInt8])
        /// A decimal's units (FIXED_LEN_BYTE_ARRAY decimals; INT32 and INT64 ones take `int32`/`int64`).
        case decimal(Int128)
    }

    public let path: String
    public let fields: [ParquetField]
    public let leaves: [ParquetLeaf]
    public let compression: ParquetCompression
    public let rowGroupRows: Int?
    public let rowGroupBytes: Int
    /// Rows written so far.
    public private(set) var rowCount = 0

    let columns: [ColumnChunkBuffer]
    private let temporary: String
    private var file: UnsafeMutablePointer<FILE>?
    private var position: Int64 = 0
    private var rowGroups: [RowGroupMetadata] = []
    private var groupRows = 0

    public init(path: String, fields: [ParquetField], compression: ParquetCompression = .zstd, rowGroupRows: Int? = nil,
                rowGroupBytes: Int = 128 << 20) throws {
        self.fields = fields
        leaves = ParquetLeaf.leaves(of: fields)
        self.compression = compression
        self.rowGroupRows = rowGroupRows.map { max(1, $0) }
        self.rowGroupBytes = rowGroupBytes
        columns = leaves.map(ColumnChunkBuffer.init)
        let path = try Self.target(of: path)
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        temporary = (folder.isEmpty ? "." : folder) + "/.\((path as NSString).lastPathComponent).socload-\(getpid()).part"
        guard let file = fopen(temporary, "wb") else {
            throw ParquetWriteError.file(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        self.file = file
        try write(Array("PAR1".utf8))
    }

    deinit { abandon() }

    /// Gives the file up: the temporary file goes, what was at `path` stays. (A failed export
    /// calls it at once: the process may end before the writer is released.)
    public func abandon() {
        guard let file else { return }
        fclose(file)
        self.file = nil
        unlink(temporary)
    }

    /// Where the file goes: `path`, or the file a symbolic link there points to; a device, a
    /// folder or anything else that is not a regular file is refused (an export replaces a
    /// file whole, by renaming a new one onto it).
    static func target(of path: String) throws -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else { return path }
        if status.st_mode & S_IFMT == S_IFLNK {
            guard let resolved = realpath(path, nil) else { return path }
            defer { free(resolved) }
            return try target(of: String(cString: resolved))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ParquetWriteError.file(path: path, reason: status.st_mode & S_IFMT == S_IFDIR
                ? "is a folder: name the file to write (FOLDER/NAME.parquet)" : "is not a regular file, which an export replaces whole")
        }
        return path
    }

    func write(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else {
            throw ParquetWriteError.file(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        position += Int64(bytes.count)
    }

    /// One row, a value per leaf column in order (a group's leaves each take their own).
    public func append(_ row: [Value]) throws {
        precondition(row.count == columns.count, "a row of \(row.count) values for \(columns.count) columns")
        for (column, value) in zip(columns, row) {
            switch value {
            case .null: column.appendNull()
            case .bool(let bool): column.append(bool: bool)
            case .int32(let int): column.append(int32: int)
            case .int64(let int): column.append(int64: int)
            case .double(let double): column.append(double: double)
            case .string(let string): column.append(string: string)
            case .bytes(let bytes): bytes.withUnsafeBytes { column.append(bytes: $0) }
            case .decimal(let units): column.append(decimalUnits: units)
            }
        }
        try endRow()
    }

    /// Ends a row whose values were given to each column directly.
    func endRow() throws {
        rowCount += 1
        groupRows += 1
        if let rowGroupRows {
            if groupRows >= rowGroupRows { try flushRowGroup() }
        } else if groupRows % 1024 == 0, columns.reduce(0, { $0 + $1.byteCount }) >= rowGroupBytes {
            try flushRowGroup()
        }
        if groupRows % 1024 == 0, columns.contains(where: \.isNearlyFull) { try flushRowGroup() }
    }

    private func flushRowGroup() throws {
        guard groupRows > 0 else { return }
        var chunks: [ColumnChunkMetadata] = []
        for column in columns {
            chunks.append(try column.writePages(compression: compression, offset: position) { try write($0) })
            column.reset()
        }
        rowGroups.append(RowGroupMetadata(columns: chunks, rowCount: Int64(groupRows)))
        groupRows = 0
    }

    /// Writes the last row group and the footer (with `keyValues`, the file's key-value
    /// metadata), and puts the file in place.
    public func finish(keyValues: [(String, String)] = []) throws {
        try flushRowGroup()
        let footer = ThriftCompactWriter.footer(fields: fields, rowGroups: rowGroups, keyValues: keyValues,
                                                createdBy: "socload version \(SocloadVersion.current)")
        try write(footer)
        let length = UInt32(footer.count)
        var ending: [UInt8] = []
        ending.appendLittleEndian(length)
        try write(ending + Array("PAR1".utf8))
        let flushed = fflush(file) == 0 && fsync(fileno(file)) == 0
        fclose(file)
        file = nil
        guard flushed, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ParquetWriteError.file(path: path, reason: "cannot be written (\(reason))")
        }
    }
}
