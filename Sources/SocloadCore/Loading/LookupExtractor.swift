/// `socload extract` as the database operation it is (no portal, no HTTP): columns of a loaded
/// table moved into a lookup table, in one transaction of `destination`. `cancel(signal:)` may be
/// called from any thread (a signal handler's); `extract` from one at a time.
///
///     let summary = try LookupExtractor(destination: destination).extract(Extraction(columns: ["position"], count: true), from: "n5m4_mism")
public struct LookupExtractor: @unchecked Sendable {
    public let destination: any LoadDestination
    /// Stops the extraction from another thread (a signal); it then rolls back.
    public let cancellation: LoadCancellation?

    public init(destination: any LoadDestination, cancellation: LoadCancellation? = nil) {
        self.destination = destination
        self.cancellation = cancellation
    }

    /// Stops the extraction, from any thread: the statement running fails soon and it rolls back.
    public func cancel(signal: Int32) {
        cancellation?.cancel(signal: signal)
        destination.interrupt()
    }

    /// Extracts columns of a table loaded before into a lookup table (see `PlanLookup`): the
    /// table is rebuilt with the lookup's foreign key in their place, its key, indexes and the
    /// user's objects made again, and the extraction is recorded in the catalog's plan, so every
    /// later fetch or sync of the table applies it too. All of it, or nothing, in one transaction.
    public func extract(_ extraction: Extraction, from tableOrDatasetID: String, strict: Bool = false) throws -> ExtractSummary {
        try LoadCancellation.reporting(cancellation, destination: destination) {
            try destination.performLoad { transaction in
                guard let entry = try transaction.catalog.entry(for: tableOrDatasetID) else {
                    throw LoadError.notInCatalog(tableOrDatasetID)
                }
                guard var plan = entry.describedPlan else {
                    throw LoadError.unsupported("\(entry.tableName) was loaded by an older socload: fetch it again first")
                }
                guard try transaction.tableExists(entry.tableName) else { throw LoadError.tableMissing(entry.tableName) }
                let previous = plan.mainTable
                try plan.tables[0].extract(extraction)
                var options = plan.options ?? PlanOptions(tableName: entry.tableName)
                options.extractions.append(extraction)
                plan.options = options
                if let limit = destination.maximumNameBytes { plan = plan.withNamesShortened(toBytes: limit) }
                try transaction.catalog.checkLookupNames(of: plan.mainTable)
                let notes = try transaction.rebuildTable(plan.mainTable, previous: previous).finish(strict: strict)
                try cancellation?.check()
                var updated = entry
                updated.planJSON = plan.jsonText
                updated.columnMappingJSON = plan.columnMappingJSON
                try transaction.catalog.record(updated)
                return ExtractSummary(tableName: entry.tableName, lookup: plan.mainTable.lookups[plan.mainTable.lookups.count - 1],
                                      notes: notes)
            }
        }
    }
}

/// What `LookupExtractor.extract` did.
public struct ExtractSummary: Sendable {
    public let tableName: String
    /// The lookup made (its table, value columns, foreign key and counts).
    public let lookup: PlanLookup
    /// What the user should know: objects of theirs that could not be rebuilt.
    public let notes: [String]
}
