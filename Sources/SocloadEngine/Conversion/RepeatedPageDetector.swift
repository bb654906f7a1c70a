import SocloadCore

/// Tells when a SODA server is not paging: a page that shares a row id with the page before it
/// means `$offset` was ignored (a server that returns the same page forever would otherwise be
/// paged without end, the transaction growing). Only the previous page's ids are kept, so memory
/// stays flat; the portal's order is not reproduced (a client cannot).
///
/// Rows without an id (a `--select` without `:id`, a server that leaves `:id` out) are compared whole: a page with exactly
/// the rows of the previous page, in the same order, only *looks* repeated (the selected values
/// may simply be alike), and the loader then asks the server for a page far past the end, which
/// a server that pages answers with no rows.
package struct RepeatedPageDetector {
    /// The plan column holding `:id`, if the rows have one.
    package let idColumn: Int?
    private var previousIDs: Set<String> = []
    private var currentIDs: Set<String> = []
    private var previousRows: [Int] = []
    private var currentRows: [Int] = []
    private var firstRepeat: String?
    private var pageNumber = 1

    package init(idColumn: Int?) {
        self.idColumn = idColumn
    }

    /// Notes the rows of a batch of the current page.
    package mutating func observe(_ batch: RowBatch) {
        for row in 0..<batch.rowCount {
            if let idColumn, case let .text(offset, length) = batch.values[row * batch.columnCount + idColumn] {
                let id = batch.string(offset: offset, length: length)
                if firstRepeat == nil, previousIDs.contains(id) { firstRepeat = id }
                currentIDs.insert(id)
            } else {
                // No id (not selected, or a server that leaves `:id` out whatever the key): the
                // row's values stand for it.
                currentRows.append(batch.hashOfRow(row))
            }
        }
    }

    /// At the end of a page: throws `LoadError.pageRepeated` when it repeated an id of the
    /// previous one; returns true when, without ids, it has the same rows as the previous one.
    package mutating func endPage() throws -> Bool {
        defer {
            pageNumber += 1
            previousIDs = currentIDs
            // One allocation for a page like the last, not one for each doubling.
            currentIDs = Set(minimumCapacity: previousIDs.count)
            previousRows = currentRows
            currentRows = []
        }
        if let firstRepeat { throw LoadError.pageRepeated(page: pageNumber, rowID: firstRepeat) }
        return !currentRows.isEmpty && currentRows == previousRows
    }

    /// A failed page is read again: forget what it delivered.
    package mutating func restartPage() {
        currentIDs = []
        currentRows = []
        firstRepeat = nil
    }
}
