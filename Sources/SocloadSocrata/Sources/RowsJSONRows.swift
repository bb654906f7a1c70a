import SocloadCore
import SocloadEngine

/// The rows of a rows.json export on their way into batches: the plan once the metadata is read,
/// then each row converted, `--limit` and `--max-rows` counted, full batches sent on.
struct RowsJSONRows {
    /// Stops reading once `--limit` rows are in.
    struct LimitReached: Error {}

    let request: LoadRequest
    let output: RowSourceOutput<RowsJSONSource>
    /// The metadata, once read.
    private(set) var stated: ViewMetadata?
    private var converter: RowConverter?
    private var batch = RowBatch(columnCount: 0, firstRowNumber: 1, expectedRows: 0)
    private var rowCount = 0

    init(request: LoadRequest, output: RowSourceOutput<RowsJSONSource>) {
        self.request = request
        self.output = output
    }

    var invalidCells: [InvalidCells] { converter?.invalidCells ?? [] }

    /// The metadata is read: the plan is made and sent, the converter made from it.
    mutating func start(_ view: ViewMetadata) throws {
        stated = view
        try view.requireTabular()
        let plan = try request.plan(for: view)
        try output.describe(.init(plan: plan, view: view))
        converter = RowConverter(plan: plan, rows: .arrays, strict: request.strict, storable: request.storable)
        batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: 1, expectedRows: RowBatch.sendingRows)
        if request.limit == 0 { throw LimitReached() }
    }

    /// One row into the batch; returns where the row ended in its bytes (nil: not all there yet).
    mutating func append(_ row: RowsJSONReader.RowText, bytesRead: Int64, bytesExpected: Int64?) throws -> Int? {
        guard converter != nil else { return nil }
        let end: Int
        if row.isWhole {
            try converter!.append(row: row.bytes, rowNumber: row.number, offset: row.offset, to: &batch)
            end = row.bytes.count
        } else {
            guard let found = try converter!.appendIfComplete(row.bytes, from: row.start, limit: row.bytes.count,
                                                              rowNumber: row.number, offset: row.offset, to: &batch)
            else { return nil }
            end = found
        }
        rowCount += 1
        if let maximum = request.maxRows, rowCount > maximum { throw LoadError.tooManyRows(maximum: maximum) }
        if let limit = request.limit, rowCount >= limit { throw LimitReached() }
        if batch.isReadyToSend { try flush(bytesRead: bytesRead, bytesExpected: bytesExpected) }
        return end
    }

    /// Sends the rows converted so far.
    mutating func flush(bytesRead: Int64, bytesExpected: Int64?) throws {
        guard batch.rowCount > 0 else { return }
        try output.send(batch, bytesRead: bytesRead, bytesExpected: bytesExpected)
        batch = RowBatch(columnCount: batch.columnCount, firstRowNumber: rowCount + 1, expectedRows: RowBatch.sendingRows)
    }
}
