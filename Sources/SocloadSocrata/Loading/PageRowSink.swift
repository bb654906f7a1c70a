/// Rows of SODA pages on their way to a destination: each row object is converted into the
/// current batch, and full batches are handed on. A page that fails is undone (`restore`), so
/// its retry neither loads nor counts a row twice.
final class PageRowSink {
    private(set) var converter: RowConverter
    private var batch: RowBatch
    private let deliverBatch: (RowBatch) throws -> Void
    private var checkpoint: RowConverter

    init(plan: LoadPlan, strict: Bool, deliver: @escaping (RowBatch) throws -> Void) {
        converter = RowConverter(plan: plan, rows: .objects, strict: strict)
        checkpoint = converter
        batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: 1, expectedRows: DatasetLoader.batchRows)
        deliverBatch = deliver
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>, rowNumber: Int, offset: Int) throws {
        try converter.append(row: bytes, rowNumber: rowNumber, offset: offset, to: &batch)
        if batch.rowCount >= DatasetLoader.batchRows || batch.arena.count >= DatasetLoader.batchBytes { try flush() }
    }

    /// Hands on rows converted elsewhere (`readPagePipelined`).
    func deliver(_ batch: RowBatch) throws {
        try deliverBatch(batch)
    }

    /// Hands on the rows converted so far.
    private func flush() throws {
        guard batch.rowCount > 0 else { return }
        try deliverBatch(batch)
        batch = RowBatch(columnCount: batch.columnCount, firstRowNumber: 1, expectedRows: DatasetLoader.batchRows)
    }

    /// At the end of a page converted elsewhere: its converter (with the page's counts) is kept.
    func endPage(converter: RowConverter) {
        self.converter = converter
        checkpoint = converter
    }

    /// At the end of a page: hands on its last rows; the page is then complete.
    func endPage() throws {
        try flush()
        checkpoint = converter
    }

    /// Forgets what was converted since the last completed page.
    func restore() {
        converter = checkpoint
        batch = RowBatch(columnCount: batch.columnCount, firstRowNumber: 1, expectedRows: DatasetLoader.batchRows)
    }
}
