/// The keys of rows a load wrote, noted as the batches go by in a table of socload's own, so
/// that a statement at the end acts on those rows only: the parents whose child rows an upsert
/// replaces (`ChildRowsRefresh`), the side of a glue table whose links it withdraws.
public final class NotedKeys {
    private let sql: any SQLExecuting
    private let writer: any TableWriter
    /// The table's name, and as the dialect names it in SQL.
    public let name: String
    public var relation: String { sql.dialect.table(name) }
    /// Its columns: the keys' columns, under the names they have where they were taken from.
    public let columns: [PlanColumn]
    /// Where the key's values are in each batch noted.
    private let positions: [Int]

    /// `columns` at `positions` of the batches to come, into the table `name` (made anew).
    public init(sql: any SQLExecuting, name: String, columns: [PlanColumn], positions: [Int]) throws {
        self.sql = sql
        self.name = sql.dialect.kept(name)
        self.columns = columns
        self.positions = positions
        writer = try sql.appendWriter(for: PlanTable(name: self.name, columns: columns))
    }

    public func note(_ batch: RowBatch) throws {
        try writer.insert(ReshapingTableWriter.reshape(batch, sources: positions))
    }

    /// Makes the noted keys readable (after the last batch).
    public func finish() throws {
        _ = try writer.finish(strict: false)
    }

    public func drop() throws {
        try sql.dropTable(name)
    }
}
