import SocloadDatabase

/// Where a load writes: a DDL dialect and a row sink, behind one small protocol so the reader and
/// the type mapping never depend on the database (a PostgreSQL destination can be added alone).
public protocol LoadDestination {
    /// Runs one load as ONE transaction: committed when `body` returns, rolled back when it
    /// throws, so a failed load leaves the previous table exactly as it was.
    func performLoad<T>(_ body: (any LoadSession) throws -> T) throws -> T
}

/// The operations of one load, all inside its transaction.
public protocol LoadSession: AnyObject {
    /// Drops the table if it exists and creates it anew for the schema.
    func replaceTable(_ schema: TableSchema) throws
    /// Inserts one row, values in the schema's column order.
    func insert(_ values: [DatabaseValue]) throws

    /// Inserts every row of a batch, in order. A constraint failure is reported as
    /// `LoadError.constraint` with the row's number.
    func insert(_ batch: RowBatch) throws
    /// Records (or replaces) the table's entry in the catalog.
    func recordCatalogEntry(_ entry: CatalogEntry) throws

    /// The catalog entry of a table, if it has one.
    func catalogEntry(for table: String) throws -> CatalogEntry?

    /// Runs `body` so that, if it throws, everything it wrote is undone while the load's
    /// transaction goes on: a failed page is retried alone.
    func withSavepoint<T>(_ body: () throws -> T) throws -> T

    /// The columns of an existing table (names, storage, primary key), or nil when there is none.
    func existingColumns(of table: String) throws -> [TableColumn]?

    /// Prepares `upsert` for rows of this schema: insert, or update the row with the same `_id`.
    func prepareUpsert(_ schema: TableSchema) throws

    /// Inserts or updates one row; true when the row was new.
    func upsert(_ values: [DatabaseValue]) throws -> Bool

    /// The largest `_updated_at` in the table: where an incremental sync starts.
    func newestUpdate(in table: String) throws -> String?

    func rowCount(of table: String) throws -> Int
}
