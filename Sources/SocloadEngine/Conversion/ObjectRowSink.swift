import SocloadCore

/// Rows as JSON objects on their way to a destination — the rows of SODA pages and the records
/// of a `load` document (and their child rows): each object is converted into the current
/// batch, and full batches are handed on. A page that fails is undone (`restore`), so its retry
/// neither loads nor counts a row twice.
package final class ObjectRowSink {
    package private(set) var converter: RowConverter
    private var batch: RowBatch
    private let deliverBatch: (RowBatch) throws -> Void
    private var checkpoint: RowConverter
    /// Pages are checked for repeats; a document's records are not pages (nil).
    private var repeats: RepeatedPageDetector?
    /// True when the last page had no row ids and the very rows of the page before it.
    package private(set) var lastPageLooksRepeated = false

    /// `table` is the plan table the rows are of (a child table's rows are its nested elements).
    /// `arePages`: the rows come in SODA pages, each checked against the one before (a server
    /// that does not page); a document's records are one stream (false).
    package init(plan: LoadPlan, table: Int = 0, strict: Bool, storable: StorableValues, arePages: Bool = true,
         deliver: @escaping (RowBatch) throws -> Void) {
        converter = RowConverter(plan: plan, table: table, rows: .objects, strict: strict, storable: storable)
        checkpoint = converter
        repeats = arePages ? RepeatedPageDetector(idColumn: plan.tables[table].columns.firstIndex { column in
            if case .rowIdentifier = column.source { return true }
            return false
        }) : nil
        batch = RowBatch(columnCount: plan.tables[table].columns.count, firstRowNumber: 1, expectedRows: RowBatch.sendingRows)
        deliverBatch = deliver
    }

    package func append(_ bytes: UnsafeBufferPointer<UInt8>, rowNumber: Int, offset: Int) throws {
        try converter.append(row: bytes, rowNumber: rowNumber, offset: offset, to: &batch)
        if batch.isReadyToSend { try flush() }
    }

    /// Hands on rows converted elsewhere (`readPagePipelined`).
    package func deliver(_ batch: RowBatch) throws {
        repeats?.observe(batch)
        try deliverBatch(batch)
    }

    /// Hands on the rows converted so far.
    private func flush() throws {
        guard batch.rowCount > 0 else { return }
        repeats?.observe(batch)
        try deliverBatch(batch)
        batch = RowBatch(columnCount: batch.columnCount, firstRowNumber: 1, expectedRows: RowBatch.sendingRows)
    }

    /// At the end of a page converted elsewhere: its converter (with the page's counts) is kept.
    /// Throws `LoadError.pageRepeated` when the page repeated rows of the previous one.
    package func endPage(converter: RowConverter) throws {
        lastPageLooksRepeated = try repeats?.endPage() ?? false
        self.converter = converter
        checkpoint = converter
    }

    /// At the end of a page: hands on its last rows; the page is then complete.
    package func endPage() throws {
        try flush()
        lastPageLooksRepeated = try repeats?.endPage() ?? false
        checkpoint = converter
    }

    /// Forgets what was converted since the last completed page.
    package func restore() {
        repeats?.restartPage()
        converter = checkpoint
        batch = RowBatch(columnCount: batch.columnCount, firstRowNumber: 1, expectedRows: RowBatch.sendingRows)
    }
}
