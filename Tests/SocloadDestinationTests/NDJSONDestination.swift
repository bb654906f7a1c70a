import Foundation
import SocloadCore

/// A third destination, in the tests only: each table is a file of JSON lines (`TABLE.ndjson`,
/// one object per row, members in the plan's column order) and the catalog is
/// `_socload_datasets.ndjson` in the same directory. It proves that a destination is one piece
/// written against the core's roles: it passes the same contract as SQLite and PostgreSQL.
///
/// A load works on the tables in memory and writes the files it changed when it commits (each
/// one to a temporary file renamed over the old), so a failed load leaves every file as it was.
final class NDJSONDestination: LoadDestination {
    let directory: URL

    init(directory: URL) {
        self.directory = directory
    }

    func performLoad<T>(_ body: (any LoadTransaction) throws -> T) throws -> T {
        let transaction = NDJSONTransaction(state: try NDJSONFiles(directory: directory).read())
        let result = try body(transaction)
        try NDJSONFiles(directory: directory).write(transaction.state)
        return result
    }
}

/// Every table of the directory and the catalog, as one value: a savepoint is a copy of it.
struct NDJSONState {
    var tables: [String: NDJSONTable] = [:]
    var catalog: [CatalogEntry] = []
    /// The schema change log, oldest first.
    var schemaChanges: [RecordedSchemaChange] = []
    /// The refresh log, oldest first.
    var refreshes: [RefreshRecord] = []
    /// Tables dropped by the load, whose files go when it commits.
    var dropped: Set<String> = []
}

/// One table's columns and rows.
struct NDJSONTable: Equatable {
    var columns: [String]
    var rows: [[CellValue]]
}

/// The operations of one load, on the state in memory.
final class NDJSONTransaction: LoadTransaction {
    var state: NDJSONState

    init(state: NDJSONState) {
        self.state = state
    }

    var catalog: any CatalogStore { NDJSONCatalog(transaction: self) }

    func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        let saved = state
        do {
            return try body()
        } catch {
            state = saved
            throw error
        }
    }

    func replaceTable(_ table: PlanTable, previous: PlanTable?) throws -> any TableWriter {
        NDJSONTableWriter(table: table, transaction: self)
    }

    func rebuildTable(_ table: PlanTable, previous: PlanTable) throws -> any TableWriter {
        throw LoadError.unsupported("the NDJSON destination keeps no lookups: extract is not available there")
    }

    func glueWriter(for table: PlanTable) throws -> any TableWriter {
        throw LoadError.unsupported("the NDJSON destination keeps no glue tables")
    }

    func dropTable(_ name: String) throws {
        state.tables[name] = nil
        state.dropped.insert(name)
    }

    func tableExists(_ name: String) throws -> Bool {
        state.tables[name] != nil
    }

    func upserter(for table: PlanTable) throws -> any RowUpserter {
        guard state.tables[table.name] != nil else { throw LoadError.tableMissing(table.name) }
        return NDJSONUpserter(table: table, transaction: self)
    }
}

/// The catalog inside a load: entries by table name, replaced whole.
final class NDJSONCatalog: CatalogStore {
    let transaction: NDJSONTransaction

    init(transaction: NDJSONTransaction) {
        self.transaction = transaction
    }

    func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry? {
        var entry = transaction.state.catalog.first { $0.tableName == tableOrDatasetID }
            ?? transaction.state.catalog.first { $0.datasetID == tableOrDatasetID }
        if !withDescription { entry?.datasetDescription = nil }
        return entry
    }

    func record(_ entry: CatalogEntry) throws {
        transaction.state.catalog.removeAll { $0.tableName == entry.tableName }
        transaction.state.catalog.append(entry)
    }

    func recordedPlans() throws -> [LoadPlan] {
        transaction.state.catalog.compactMap(\.plan)
    }

    func recordSchemaChanges(_ changes: [SchemaChange], at time: String) throws {
        transaction.state.schemaChanges += changes.map { RecordedSchemaChange(changedAt: time, change: $0) }
    }

    func schemaChanges(of table: String) throws -> [RecordedSchemaChange] {
        transaction.state.schemaChanges.filter { $0.change.table == table }
    }

    func recordRefresh(_ record: RefreshRecord) throws {
        transaction.state.refreshes.append(record)
    }

    func refreshes(of table: String) throws -> [RefreshRecord] {
        transaction.state.refreshes.filter { $0.table == table }
    }
}
