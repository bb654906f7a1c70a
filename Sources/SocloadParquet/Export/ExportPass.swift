import Foundation
import SocloadCore
import SocloadEngine

/// One pass over a table's rows into a Parquet file, on both cores: the reading thread steps the
/// database's statement and copies each row's values into batches of 4,096 rows (`RowBatch`:
/// the bytes of its texts in one arena), and a second thread converts each batch into the
/// column buffers and writes the row groups (`ExportColumn`, `GeoColumn`, `ParquetFileWriter`).
/// A bounded channel of two batches between them keeps memory flat.
final class ExportPass: @unchecked Sendable {
    // @unchecked Sendable: the writer, the columns and `failure` are used by the converting
    // thread alone until `run` has joined it; the reading thread touches only the channel.
    private let writer: ParquetFileWriter
    private var columns: [ExportColumn]
    private var geo: [GeoColumn]
    private var failure: (any Error)?
    private var rows = 0
    static let batchRows = 4_096

    init(writer: ParquetFileWriter, columns: [ExportColumn], geo: [GeoColumn]) {
        (self.writer, self.columns, self.geo) = (writer, columns, geo)
    }

    /// Reads every row of `statement` and converts it; returns the columns and geometries as the
    /// pass left them (their counts of values written as NULL) and the rows read.
    func run(_ statement: SQLFragment, in database: any LoadedDatabase) throws -> (columns: [ExportColumn], geo: [GeoColumn], rows: Int) {
        let channel = BoundedChannel<RowBatch?>(capacity: 2)
        let finished = DispatchSemaphore(value: 0)
        let converter = Thread { [self] in
            defer { finished.signal() }
            while true {
                guard let item = channel.receive(timeout: 3_600), let batch = item else {
                    // A wait of an hour with nothing: the reader still works (a long statement).
                    if channel.isClosedForSending { return }
                    continue
                }
                do {
                    try convert(batch)
                } catch {
                    failure = error
                    channel.close()
                    return
                }
            }
        }
        converter.stackSize = 1 << 20
        converter.start()
        let count = columns.count
        var batch = RowBatch(columnCount: count, firstRowNumber: 1, expectedRows: Self.batchRows)
        var readFailure: (any Error)?
        do {
            try database.scan(statement) { row in
                Self.copy(row, count: count, into: &batch)
                if batch.rowCount == Self.batchRows {
                    guard channel.send(batch) else { throw Stopped() }
                    batch = RowBatch(columnCount: count, firstRowNumber: 1, expectedRows: Self.batchRows)
                }
            }
            if batch.rowCount > 0 { _ = channel.send(batch) }
        } catch {
            readFailure = error
        }
        channel.finishSending()
        finished.wait()
        if let failure { throw failure }
        if let readFailure { throw readFailure }
        return (columns, geo, rows)
    }

    /// The reader's way to stop when the converting thread failed (its error is thrown instead).
    private struct Stopped: Error {}

    /// A row's values copied into the batch: numbers as they are, texts' and blobs' bytes into
    /// its arena (a blob marked as `.json`, a kind the reader's copy has no other use for).
    private static func copy(_ row: any ResultRow, count: Int, into batch: inout RowBatch) {
        for column in 0..<count {
            switch row.kind(column) {
            case .null: batch.values.append(.null)
            case .integer: batch.values.append(.integer(row.integer(column)))
            case .real: batch.values.append(.real(row.real(column)))
            case .text: row.withBytes(column) { batch.appendBytes($0) }
            case .blob:
                row.withBytes(column) { batch.appendBytes($0) }
                if case let .text(offset, length) = batch.values.removeLast() { batch.values.append(.json(offset: offset, length: length)) }
            }
        }
    }

    /// Converts a batch's rows into the column buffers, a row at a time.
    private func convert(_ batch: RowBatch) throws {
        let count = columns.count
        let buffers = writer.columns.map(Unmanaged.passUnretained)
        try batch.arena.withUnsafeBytes { arena in
            try batch.values.withUnsafeBufferPointer { values in
                for index in 0..<batch.rowCount {
                    rows += 1
                    let row = BatchRow(values: UnsafeBufferPointer(rebasing: values[(index * count)..<((index + 1) * count)]), arena: arena)
                    for column in 0..<count {
                        try buffers[column]._withUnsafeGuaranteedRef { try columns[column].write(row, column: column, row: rows, into: $0) }
                    }
                    for place in geo.indices {
                        let first = count + place * 5
                        geo[place].write(row, geometry: writer.columns[first], box: writer.columns[(first + 1)..<(first + 5)])
                    }
                    try writer.endRow()
                }
            }
        }
    }
}

/// A row of a batch the reader copied, as a `ResultRow`.
private struct BatchRow: ResultRow {
    let values: UnsafeBufferPointer<RowBatch.Value>
    let arena: UnsafeRawBufferPointer

    var count: Int { values.count }

    func kind(_ column: Int) -> ResultValueKind {
        switch values[column] {
        case .null: return .null
        case .integer: return .integer
        case .real: return .real
        case .json: return .blob
        default: return .text
        }
    }

    func integer(_ column: Int) -> Int64 {
        if case .integer(let value) = values[column] { return value }
        return 0
    }

    func real(_ column: Int) -> Double {
        if case .real(let value) = values[column] { return value }
        return 0
    }

    func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch values[column] {
        case let .text(offset, length), let .json(offset, length):
            return try body(UnsafeRawBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)]))
        default:
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }
}
