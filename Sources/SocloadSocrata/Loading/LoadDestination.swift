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
    /// Records (or replaces) the table's entry in the catalog.
    func recordCatalogEntry(_ entry: CatalogEntry) throws
}
