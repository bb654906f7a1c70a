import SocloadCore

/// `sync --deletes`: the rows the portal no longer has go too, found by listing only the keys
/// the portal has now (`$select=:id`, or the key fields of a `--pk` key), paged like any request
/// (and kept with the version in the download cache, as the sync's rows are).
extension SyncJob {
    /// Lists the portal's keys into the upserter's key set and deletes the table's rows outside
    /// it. Refused (nothing changed) when that is more than `limit` allows, or every row when
    /// the portal listed none and the limit is not 100%.
    func deleteRowsGoneUpstream(plan: LoadPlan, layout: SODARowLayout, portal: SocrataPortal, pageSize: Int,
                                limit: DeletionLimit?, upserter: any RowUpserter, transaction: any LoadTransaction,
                                view: ViewMetadata, copy: DownloadCache.PagesWriter? = nil) throws -> Int {
        let table = plan.mainTable
        let keyColumns = table.primaryKey.compactMap { table.column(named: $0) }
        var fields: [String] = []
        for column in keyColumns {
            switch column.source {
            case .rowIdentifier: fields.append(":id")
            case .field(let cell) where cell < plan.sourceFields.count: fields.append(plan.sourceFields[cell])
            default: throw LoadError.unsupported("sync --deletes needs a key of whole fields; \(column.name) is not one")
            }
        }
        var keyPlan = plan
        keyPlan.tables = [PlanTable(name: table.name, columns: keyColumns, primaryKey: table.primaryKey)]
        try upserter.beginKeySet()
        var listed = 0
        let state = DatasetLoader.LoadState()
        state.view = view
        // `:id` travels too, so the pages continue after it (paging by key).
        let selected = fields.contains(":id") ? fields : fields + [":id"]
        try loader.readPages(api: loader.queryAPI, portal: portal, query: SoQLQuery(select: selected.joined(separator: ", "), order: ":id"),
                          pageSize: pageSize, limit: nil, layout: layout, transaction: transaction, state: state, copy: copy) { _ in
            ObjectRowSink(plan: keyPlan, strict: false, storable: loader.destination.storableValues) { batch in
                listed += batch.rowCount
                try upserter.addKeys(batch)
            }
        }
        let deleting = try upserter.countRowsOutsideKeySet()
        let rows = try upserter.rowCount()
        if deleting > 0, listed == 0, limit != .percent(100) {
            throw LoadError.tooManyDeletes(table: table.name, deleting: deleting, rows: rows, maximum: nil)
        }
        if let limit, deleting > limit.maximum(of: rows) {
            throw LoadError.tooManyDeletes(table: table.name, deleting: deleting, rows: rows, maximum: limit.maximum(of: rows))
        }
        return try upserter.deleteRowsOutsideKeySet()
    }
}
