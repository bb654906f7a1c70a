import Foundation
import SocloadCore
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSQLite
import SocloadTestSupport

/// A destination under the shared contract, and how the contract reads back what it wrote.
protocol DestinationSubject {
    /// A destination on the subject's database (a new connection each time, as a command opens).
    func makeDestination() throws -> any LoadDestination
    /// The rows of a table in the order of its key, each cell as the database returns it.
    func rows(of table: PlanTable) throws -> [[CellValue]]
    /// The tables the database holds, socload's catalog aside, by name.
    func tableNames() throws -> [String]
    /// What the catalog records for the table.
    func entry(for table: String) throws -> CatalogEntry?
}

/// SQLite and PostgreSQL are read back through their read role.
protocol ReadRoleSubject: DestinationSubject {
    func loadedDatabase() throws -> any LoadedDatabase
}

extension ReadRoleSubject {
    func rows(of table: PlanTable) throws -> [[CellValue]] {
        let database = try loadedDatabase()
        let order = table.primaryKey.isEmpty ? table.storedColumns.map(\.name) : table.primaryKey
        var rows: [[CellValue]] = []
        try database.read(try database.selectStatement(SelectRequest(table: table.name, orderBy: order)), columns: { _ in }) { row in
            rows.append(row.map { value in
                switch value {
                case .null: return .null
                case .integer(let integer): return .integer(integer)
                case .real(let real): return .real(real)
                case .text(let text): return .text(text)
                case .blob(let bytes): return .text(bytes.map { String(format: "%02x", $0) }.joined())
                }
            })
        }
        return rows
    }

    func tableNames() throws -> [String] { try loadedDatabase().tables().map(\.name) }
    func entry(for table: String) throws -> CatalogEntry? { try loadedDatabase().entry(for: table) }
}

struct SQLiteSubject: ReadRoleSubject {
    let path: String

    func makeDestination() throws -> any LoadDestination {
        SQLiteDestination(queue: try DatabaseQueue(path: path))
    }

    func loadedDatabase() throws -> any LoadedDatabase {
        try SQLiteLoadedDatabase(path: path)
    }
}

struct PostgreSQLSubject: ReadRoleSubject {
    let database: TestPostgreSQL.TestDatabase

    func makeDestination() throws -> any LoadDestination {
        PostgreSQLDestination(connection: try database.connect())
    }

    func loadedDatabase() throws -> any LoadedDatabase {
        PostgreSQLDatabase(connection: try database.connect())
    }
}

/// The NDJSON destination is read from its files.
struct NDJSONSubject: DestinationSubject {
    let directory: URL

    func makeDestination() throws -> any LoadDestination {
        NDJSONDestination(directory: directory)
    }

    func rows(of table: PlanTable) throws -> [[CellValue]] {
        guard let stored = try NDJSONFiles(directory: directory).read().tables[table.name] else { return [] }
        let order = (table.primaryKey.isEmpty ? table.storedColumns.map(\.name) : table.primaryKey)
            .compactMap { stored.columns.firstIndex(of: $0) }
        return stored.rows.sorted { left, right in
            for index in order where left[index] != right[index] {
                return NDJSONTableWriter.text(left[index]) ?? "" < NDJSONTableWriter.text(right[index]) ?? ""
            }
            return false
        }
    }

    func tableNames() throws -> [String] {
        try NDJSONFiles(directory: directory).read().tables.keys.sorted()
    }

    func entry(for table: String) throws -> CatalogEntry? {
        try NDJSONFiles(directory: directory).read().catalog.first { $0.tableName == table }
    }
}
