import Foundation
import SocloadCore

/// The catalog part of the read role, for the NDJSON destination: what its files hold as last
/// committed (a load in progress works on a copy in memory).
extension NDJSONDestination {
    var place: String { "'\(directory.path)'" }

    func tables() throws -> [TableSummary] {
        try committed().tables.sorted { $0.key < $1.key }.map { name, table in
            TableSummary(name: name, rowCount: table.rows.count, nameInSQL: name)
        }
    }

    func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry? {
        try catalog().entry(for: tableOrDatasetID, withDescription: withDescription)
    }

    func planTable(named table: String) throws -> PlanTable? {
        try committed().catalog.first { $0.tableName == table }?.plan?.mainTable
    }

    func tableExists(_ table: String) throws -> Bool {
        try committed().tables[table] != nil
    }

    func schemaChanges(of table: String) throws -> [RecordedSchemaChange] {
        try catalog().schemaChanges(of: table)
    }

    func refreshes(of table: String) throws -> [RefreshRecord] {
        try catalog().refreshes(of: table)
    }

    private func committed() throws -> NDJSONState {
        try NDJSONFiles(directory: directory).read()
    }

    private func catalog() throws -> NDJSONCatalog {
        NDJSONCatalog(transaction: NDJSONTransaction(state: try committed()))
    }
}
