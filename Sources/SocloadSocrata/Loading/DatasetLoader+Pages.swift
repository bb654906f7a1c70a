import SocloadCore

/// Loading through the query APIs, SODA 2.1 and SODA3, page by page.
extension DatasetLoader {
    /// Reads pages of `pageSize` rows in a stable order until a short page, converting each row
    /// into the sink `start` makes once the layout is known (from the metadata, or from the first
    /// page's headers). Pages after the first continue after the last row of the page before
    /// (`SoQLKeyset`); where the order or the rows give no key, by offset, with a note that says
    /// why. Each page runs in a savepoint and is retried alone: the rows of earlier pages are not
    /// fetched again. More than `maxRows` rows is `LoadError.tooManyRows` (a page asks for one
    /// row more than that at most). Sets `state.rowCount`; returns the sink (nil: no page had a
    /// layout) and the number of pages read.
    @discardableResult
    func readPages(api: DatasetAPI, portal: SocrataPortal, query: SoQLQuery, pageSize requestedSize: Int, limit: Int?,
                   maxRows: Int? = nil, layout initialLayout: SODARowLayout?, transaction: any LoadTransaction, state: LoadState,
                   copy: DownloadCache.PagesWriter? = nil,
                   start: @escaping (SODARowLayout) throws -> ObjectRowSink) throws -> (sink: ObjectRowSink?, pages: Int) {
        let downloader = HTTPDownloader(options: http, cancellation: cancellation)
        let pageSize = max(1, requestedSize)
        var sink = try initialLayout.map(start)
        var total = 0
        var pageNumber = 1
        var pagesRead = 0
        var cursor = PageCursor()
        state.rowCount = 0
        while true {
            let (byOffset, after) = (cursor.byOffset, cursor.after)
            var wanted = limit.map { min(pageSize, $0 - total) } ?? pageSize
            if wanted <= 0 { break }
            // Paged by offset, SODA3 pages all have `pageSize` rows (the page number is the offset).
            let fixedSize = api == .soda3 && byOffset
            if let maxRows, !fixedSize, maxRows - total < wanted { wanted = maxRows - total + 1 }
            let offset = total
            let maximum = fixedSize ? pageSize : wanted
            let pageRequest = api == .soda3
                ? portal.soda3PageRequest(query: query, after: after, pageNumber: fixedSize ? total / pageSize + 1 : 1,
                                          pageSize: fixedSize ? pageSize : wanted)
                : HTTPRequest(url: portal.soda2PageURL(query: query, after: after, offset: byOffset ? offset : nil, limit: wanted))
            let page: PageRead
            do {
                page = try retry.run(cancellation: cancellation, onRetry: retryNotice) {
                    let hadSink = sink != nil
                    // A page read again is copied again from its start.
                    let file = try copy?.page(pageNumber)
                    do {
                        let read = try transaction.withSavepoint {
                            // With the columns known, the page is converted on a second core.
                            if let sink {
                                return try readPagePipelined(.request(pageRequest), sink: sink, offset: offset, limit: wanted,
                                                             maximum: maximum, state: state, copy: file)
                            }
                            return try readPage(pageRequest, downloader: downloader, sink: &sink, offset: offset,
                                                limit: wanted, maximum: maximum, query: query, portal: portal, state: state,
                                                copy: file, start: start)
                        }
                        if let file { try copy?.finish(file, page: pageNumber, rows: read.rows) }
                        return read
                    } catch {
                        // The savepoint undid the page's rows (and a table it created).
                        sink?.restore()
                        if !hadSink { sink = nil }
                        throw error
                    }
                }
            } catch let error as HTTPError {
                throw PageError(number: pageNumber, underlying: error)
            } catch LoadError.pageTooLong(_, let limit) {
                throw LoadError.pageTooLong(page: pageNumber, limit: limit)
            } catch LoadError.pageRepeated(let page, let rowID, _) {
                throw LoadError.pageRepeated(page: page, rowID: rowID, ignoring: byOffset ? "$offset" : "the condition on :id")
            }
            total += page.rows
            state.rowCount = total
            if let maxRows, total > maxRows { throw LoadError.tooManyRows(maximum: maxRows) }
            if sink?.lastPageLooksRepeated == true,
               try !pagesEndWhereTheyShould(api: api, portal: portal, query: query, pageSize: pageSize, downloader: downloader) {
                throw LoadError.pageRepeated(page: pageNumber, rowID: nil, ignoring: byOffset ? "$offset" : "the condition on :id")
            }
            pagesRead += 1
            if page.rows < maximum || (fixedSize && page.rows < pageSize) { break }
            pageNumber += 1
            if let note = cursor.advance(pastLastRow: page.lastRow, query: query, columnTypes: Self.fieldTypes(of: state.view)) {
                state.notes.append(note)
            }
        }
        return (sink, pagesRead)
    }

    /// A page's row count and its last row's JSON text (the key the next page continues after).
    struct PageRead {
        let rows: Int
        let lastRow: [UInt8]
    }

    /// Field name → the metadata's type name, for the key's literals.
    static func fieldTypes(of view: ViewMetadata?) -> [String: String] {
        var types: [String: String] = [:]
        for column in view?.columns ?? [] {
            if let field = column.fieldName { types[field] = column.dataTypeName }
        }
        return types
    }

    /// Asks for a page far past the end of any dataset: a server that pages answers with no rows;
    /// one that ignores the offset sends rows again.
    private func pagesEndWhereTheyShould(api: DatasetAPI, portal: SocrataPortal, query: SoQLQuery, pageSize: Int,
                                         downloader: HTTPDownloader) throws -> Bool {
        let farOffset = 1 << 40
        let probe = api == .soda3
            ? portal.soda3PageRequest(query: query, pageNumber: farOffset / pageSize, pageSize: pageSize)
            : HTTPRequest(url: portal.soda2PageURL(query: query, offset: farOffset, limit: 1))
        var rows = 0
        try retry.run(cancellation: cancellation, onRetry: retryNotice) {
            rows = 0
            let reader = JSONArrayReader()
            try downloader.download(probe, onResponse: { _ in }, onChunk: { chunk in
                try reader.feed(chunk) { element in
                    if element.isWhole { rows += 1 }
                    return nil
                }
            })
            try reader.finish()
        }
        return rows == 0
    }

    /// One page: its rows converted into the sink, their count returned.
    private func readPage(_ pageRequest: HTTPRequest, downloader: HTTPDownloader, sink: inout ObjectRowSink?,
                          offset: Int, limit: Int, maximum: Int, query: SoQLQuery, portal: SocrataPortal, state: LoadState,
                          copy: DownloadCache.PageFile?, start: (SODARowLayout) throws -> ObjectRowSink) throws -> PageRead {
        let reader = JSONArrayReader()
        var count = 0
        var lastRow: [UInt8] = []
        var beyondLimit = 0
        var current = sink
        try downloader.download(pageRequest, onResponse: { head in
            copy?.head = head
            if current == nil {
                current = try start(try self.layoutFromHeaders(head, query: query, portal: portal, view: state.view))
            }
        }, onChunk: { chunk in
            try self.cancellation?.check()
            try copy?.write(chunk)
            try reader.feed(chunk) { element in
                guard element.isWhole, let current else { return nil }
                guard count < limit else {
                    beyondLimit += 1
                    if count + beyondLimit > maximum { throw LoadError.pageTooLong(page: 0, limit: maximum) }
                    return nil
                }
                count += 1
                try current.append(element.bytes, rowNumber: offset + count, offset: element.offset)
                lastRow.removeAll(keepingCapacity: true)
                lastRow.append(contentsOf: element.bytes[element.start...])
                return nil
            }
            state.bytesRead += Int64(chunk.count)
            self.progress?(LoadProgress(bytesRead: state.bytesRead, bytesExpected: nil,
                                        rowsLoaded: offset + count, elapsed: state.elapsed))
        })
        try reader.finish()
        try current?.endPage()
        sink = current
        return PageRead(rows: count, lastRow: lastRow)
    }

    /// The view metadata, or nil when the portal will not give it (401, 403, 404: private, or an
    /// old portal): the page headers describe the columns then. A description that the portal did
    /// send but that cannot be read is bad data, with its reason.
    func viewIfAvailable(_ portal: SocrataPortal) throws -> ViewMetadata? {
        do {
            return try fetchView(portal)
        } catch let error as HTTPError {
            if case .status(let code, _, _, _) = error, [401, 403, 404].contains(code) { return nil }
            throw error
        }
    }

    private func layoutFromHeaders(_ head: HTTPResponseHead, query: SoQLQuery, portal: SocrataPortal,
                                   view: ViewMetadata?) throws -> SODARowLayout {
        if let layout = SODARowLayout(head: head, id: portal.datasetID) {
            guard let view else { return layout }
            // Keep the portal's own column descriptions (location, url...) where it has them.
            var described = layout.view
            described.columns = described.columns.map { column in
                view.columns.first { $0.fieldName == column.fieldName } ?? column
            }
            described.name = view.name
            described.rowsUpdatedAt = view.rowsUpdatedAt
            // What the portal says of the dataset (description, attribution, license, stated
            // update frequency) is the description's, as a rows.json load keeps it.
            described.dictionary = view.dictionary
            return SODARowLayout(view: described, selectedFields: Set(described.columns.compactMap(\.fieldName)))
        }
        if let view {
            return SODARowLayout(view: view, selectedFields: query.select.map(SODARowLayout.fieldNames(inSelect:)))
        }
        throw LoadError.unsupported("the portal gave neither the dataset's metadata nor X-SODA2-Fields headers: "
                                    + "socload cannot tell the columns")
    }
}
