import Foundation
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// A test with its own database on the test server and a scratch directory.
class PostgreSQLTestCase: XCTestCase {
    var database: TestPostgreSQL.TestDatabase!
    var directory: URL!

    override func setUpWithError() throws {
        database = try TestPostgreSQL.makeDatabase()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("socload-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        database = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A loader into the test database (a new connection each time).
    func loader(schema: String = "public", configure: (PostgreSQLDestination) -> Void = { _ in },
                cancellation: LoadCancellation? = nil) throws -> DatasetLoader {
        let destination = PostgreSQLDestination(connection: try database.connect(), schema: schema)
        configure(destination)
        return DatasetLoader(destination: destination, cancellation: cancellation)
    }

    @discardableResult
    func load(file path: String, id: String? = "test-0001", table: String? = nil, strict: Bool = false,
              configure: (PostgreSQLDestination) -> Void = { _ in }) throws -> LoadSummary {
        var request = LoadRequest(reference: DatasetReference(location: .file(path), datasetID: id, domain: nil), tableName: table)
        request.strict = strict
        request.force = true // each call is a load: the tests load the same file again and again
        return try loader(configure: configure).load(request)
    }

    func bundled(_ id: String) -> String {
        Fixtures.datasetsDirectory.appendingPathComponent("\(id).json").path
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Rows of a query, as text.
    func rows(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try database.connect().execute(sql, parameters).rows
    }

    func value(_ sql: String, _ parameters: [String?] = []) throws -> String? {
        try database.connect().value(sql, parameters)
    }

    /// A rows.json document with these columns (name, dataTypeName) and rows.
    static func rowsJSON(columns: [(String, String)], rows: [[String]]) -> String {
        var columnsJSON = [#"{"id":-1,"name":"sid","dataTypeName":"meta_data","fieldName":"sid","position":0}"#,
                           #"{"id":-1,"name":"id","dataTypeName":"meta_data","fieldName":"id","position":0}"#]
        for (index, column) in columns.enumerated() {
            columnsJSON.append(#"{"id":\#(index + 1),"name":\#(JSONValue.quoted(column.0)),"dataTypeName":"\#(column.1)","fieldName":\#(JSONValue.quoted(column.0)),"position":\#(index + 1)}"#)
        }
        let data = rows.enumerated().map { index, cells in
            "[\"row-\(index + 1)\", \"\(String(format: "%08X", index + 1))-0000-0000-0000-000000000000\", " + cells.joined(separator: ", ") + "]"
        }
        return #"{"meta":{"view":{"id":"test-0001","name":"Test","columns":[\#(columnsJSON.joined(separator: ","))]}},"data":[\#(data.joined(separator: ",\n"))]}"#
    }
}
