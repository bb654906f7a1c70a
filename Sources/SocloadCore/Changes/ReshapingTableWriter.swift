/// A table writer for a table whose columns are not the ones rows arrive in (a table kept in
/// its old shape, `--on-schema-change evolve`): each batch is reshaped to the table's columns
/// (a column taken from the arriving rows, or NULL) before it is written. The text stays where
/// it is in the batch's arena.
public final class ReshapingTableWriter: TableWriter {
    private let base: any TableWriter
    /// For each of the table's columns, the arriving column it takes, or nil for NULL.
    private let sources: [Int?]

    public init(base: any TableWriter, sources: [Int?]) {
        self.base = base
        self.sources = sources
    }

    /// The sources that take `table`'s columns from rows made for `arriving`: a column is the
    /// arriving column with the same source (its name may differ), a column with no source is
    /// NULL. Nil when the two are the same columns in the same order.
    public static func sources(for table: PlanTable, arriving: PlanTable) -> [Int?]? {
        let sources = table.columns.map { column -> Int? in
            if case .absent = column.source { return nil }
            return arriving.columns.firstIndex { $0.source == column.source }
        }
        return sources == Array(arriving.columns.indices).map { Optional($0) } ? nil : sources
    }

    public func insert(_ batch: RowBatch) throws {
        try base.insert(Self.reshape(batch, sources: sources))
    }

    /// `batch` with the columns `sources` takes (an arriving column each, or NULL).
    public static func reshape(_ batch: RowBatch, sources: [Int?]) -> RowBatch {
        var reshaped = RowBatch(columnCount: sources.count, firstRowNumber: batch.firstRowNumber, expectedRows: 0)
        reshaped.arena = batch.arena
        reshaped.values.reserveCapacity(batch.rowCount * sources.count)
        for row in 0..<batch.rowCount {
            let start = row * batch.columnCount
            for source in sources {
                reshaped.values.append(source.map { batch.values[start + $0] } ?? .null)
            }
        }
        return reshaped
    }

    public func finish(strict: Bool) throws -> [String] {
        try base.finish(strict: strict)
    }
}
