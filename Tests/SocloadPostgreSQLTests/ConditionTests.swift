import Foundation
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadSQLite
import XCTest

/// Every kind of `RowFilter`, written once by `ConditionWriter`, selects the same rows from the
/// same file loaded into SQLite and into PostgreSQL (hostile text, accents, dates, timestamps,
/// numbers, a lookup reached through `related`).
final class ConditionTests: PostgreSQLTestCase {
    private typealias P = RowFilter

    func testEveryKindOfConditionSelectsTheSameRowsInBothDatabases() throws {
        let columns = [("name", "text"), ("day", "calendar_date"), ("at", "date"), ("n", "number"), ("agency", "text")]
        let rows = [
            [#""Café de l'Île""#, #""2014-06-15T00:00:00""#, "1402833600", #""12.5""#, #""State""#],
            [#""CAFE NOIR""#, #""2014-07-01T00:00:00""#, "1404216000", #""-3""#, #""Defense""#],
            [#""x'); DROP TABLE t; --""#, #""2013-12-31T23:59:59""#, "1388534399", #""0""#, #""State""#],
            [#""Zürich 50%_off""#, #""2015-01-01T00:00:00""#, "1420070400", "null", "null"],
            [#""naïve \\ path""#, "null", "null", #""7""#, #""Ünion""#],
        ]
        let path = try write("conditions.json", Self.rowsJSON(columns: columns, rows: rows))
        var request = LoadRequest(reference: DatasetReference(location: .file(path), datasetID: "test-0001", domain: nil), tableName: "t")
        request.extractions = [Extraction(columns: ["agency"])]
        _ = try loader().load(request)
        let sqlitePath = directory.appendingPathComponent("same.sqlite").path
        _ = try DatasetLoader(destination: SQLiteDestination(queue: try DatabaseQueue(path: sqlitePath))).load(request)
        try database.connect().execute("CREATE EXTENSION unaccent")

        let postgreSQL = PostgreSQLDatabase(connection: try database.connect(), schema: "public")
        let sqlite = try SQLiteLoadedDatabase(path: sqlitePath)
        let predicates: [P] = [
            .contains("name", "cafe", caseInsensitive: true, diacriticInsensitive: true),
            .contains("name", "Café"),
            .contains("name", "50%_"),
            .beginsWith("name", "CAF", caseInsensitive: true),
            .endsWith("name", "off"),
            .endsWith("name", "ZÜRICH 50%_OFF", caseInsensitive: true, diacriticInsensitive: true),
            .endsWith("name", ""),
            .like("name", "%\\%\\_%"),
            .equals("name", "x'); DROP TABLE t; --"),
            .lessThanOrEqual("day", "2014-06"),
            .greaterThanOrEqual("day", "2014"),
            .between("day", "2014-01", "2014-06-15"),
            .lessThanOrEqual("at", "2014-06-15"),
            .greaterThan("n", 0) && !.isNull("n"),
            .in("n", [12.5, 7]) || .isNull("day"),
            .equals("n", nil as Double?), .notEquals("day", nil as String?),
            .related("agency_id", to: "agency", where: .in("agency", ["State", "Ünion"])),
            .related("agency_id", to: "agency", where: .contains("agency", "union", caseInsensitive: true, diacriticInsensitive: true)),
        ]
        for predicate in predicates {
            let request = SelectRequest(table: "t", columns: ["name"], predicate: predicate, orderBy: ["name"])
            let fromPostgreSQL = try names(postgreSQL, request)
            XCTAssertEqual(fromPostgreSQL, try names(sqlite, request), "\(predicate)")
            XCTAssertFalse(fromPostgreSQL.isEmpty, "\(predicate) selects something")
        }
        XCTAssertEqual(try names(postgreSQL, SelectRequest(table: "t", columns: ["name"], predicate: .lessThanOrEqual("day", "2014-06"))),
                       ["Café de l'Île", "x'); DROP TABLE t; --"])
        XCTAssertEqual(try names(postgreSQL, SelectRequest(table: "t", columns: ["name"], predicate: .equals("n", nil as Double?))),
                       ["Zürich 50%_off"])
    }

    private func names(_ database: any LoadedDatabase, _ request: SelectRequest) throws -> [String] {
        var found: [String] = []
        try database.read(try database.selectStatement(request), columns: { _ in }) { row in
            if case .text(let text) = row.first { found.append(text) }
        }
        return found.sorted()
    }
}
