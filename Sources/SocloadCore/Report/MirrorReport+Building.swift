import Foundation

extension MirrorReport.Dataset {
    /// A dataset of the report from what the database keeps of its table: the catalog's
    /// `entry`, the table's refresh and schema change logs (the last `keep` refreshes), and the
    /// verification (`LoadedDatabase.verify`). `watch` is the one the last refresh recorded
    /// (`WatchLog`); without it the watch is judged now from the stamp the last load recorded,
    /// by `expected` (a project entry's), else the stated frequency, else the refresh log.
    public static func build(entry: CatalogEntry, name: String? = nil, refreshes: [RefreshRecord], schemaChanges: [RecordedSchemaChange],
                             verification: PortalVerification?, recorded: (checkedAt: String, watch: DatasetWatch)?,
                             expected: UpdateInterval? = nil, keep: Int = 30, now: Date = Date()) -> MirrorReport.Dataset {
        var dataset = MirrorReport.Dataset(name: name ?? entry.tableName, table: entry.tableName, source: entry.sourceURL,
                                           rows: entry.rowCount, fetchedAt: entry.fetchedAt)
        let dictionary = entry.dictionary
        dataset.title = dictionary?.name ?? entry.name
        dataset.datasetID = entry.datasetID
        dataset.page = dictionary?.pageURL
        dataset.rowsUpdatedAt = entry.rowsUpdatedAt
        var all = refreshes.map(MirrorReport.Refresh.init)
        for index in all.indices {
            if index == 0 { all[index].firstLoad = true; continue }
            let counted = all[index].added != nil || all[index].changed != nil || all[index].removed != nil
            all[index].rowsMoved = !counted && all[index].rows != all[index - 1].rows
        }
        dataset.refreshes = Array(all.suffix(max(keep, 1)))
        dataset.schemaChanges = schemaChanges.map { .init(at: $0.changedAt, line: $0.change.line) }
        if let verification, verification.hasPortalDescription, !verification.results.isEmpty || verification.partialReason != nil {
            dataset.verify = .init(checks: verification.results.count, differences: verification.differenceLines,
                                   partialReason: verification.partialReason)
        }
        if let recorded {
            dataset.watch = recorded.watch
            dataset.watchCheckedAt = recorded.checkedAt
        } else {
            let expectation = DatasetWatch.Expectation.first(expected: expected, stated: dictionary?.updateFrequency,
                                                             stamps: { refreshes.compactMap(\.rowsUpdatedAt) })
            dataset.watch = DatasetWatch.judge(expected: expectation, portalRowsUpdatedAt: entry.rowsUpdatedAt.flatMap(ISO8601Timestamp.parse),
                                               now: now)
        }
        return dataset
    }
}
