import Foundation
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import XCTest

/// Reads a table from both databases into one form per logical type and compares every cell.
enum CrossDatabaseComparison {
    static func assertSameCells(_ table: PlanTable, postgreSQL: PostgreSQLConnection, sqlite: DatabaseQueue,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let key = table.primaryKey.isEmpty ? nil : table.primaryKey.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let columns = table.columns.map { column -> String in
            let name = column.name.quotedDatabaseIdentifier
            switch column.type {
            case .timestamp: return "extract(epoch FROM \(name))::text"
            case .boolean: return "\(name)::int::text"
            default: return "\(name)::text"
            }
        }
        let order = key ?? "ctid"
        let pgRows = try postgreSQL.execute("SELECT \(columns.joined(separator: ", ")) FROM \(table.name.quotedDatabaseIdentifier) ORDER BY \(order)").rows
        let sqliteRows = try sqlite.read { db in
            try db.fetchRows(sql: "SELECT * FROM \(table.name.quotedDatabaseIdentifier) ORDER BY \(key ?? "rowid")")
        }
        XCTAssertEqual(pgRows.count, sqliteRows.count, "\(table.name): row counts", file: file, line: line)
        var differences = 0
        for (rowIndex, (pgRow, sqliteRow)) in zip(pgRows, sqliteRows).enumerated() {
            for (columnIndex, column) in table.columns.enumerated() {
                let pg = normalized(pgRow[columnIndex], column.type, fromPostgreSQL: true)
                let lite = normalized(sqliteRow.values[columnIndex], column.type)
                if pg != lite {
                    differences += 1
                    if differences <= 10 {
                        XCTFail("\(table.name) row \(rowIndex + 1) \(column.name) (\(column.type.rawValue)): "
                                + "PostgreSQL \(pg ?? "NULL") vs SQLite \(lite ?? "NULL")", file: file, line: line)
                    }
                }
            }
        }
        XCTAssertEqual(differences, 0, "\(table.name): cells that differ", file: file, line: line)
    }

    /// One text form per type: numbers as doubles, JSON re-serialized, timestamps as epoch seconds.
    static func normalized(_ text: String?, _ type: LogicalType, fromPostgreSQL: Bool) -> String? {
        guard let text else { return nil }
        switch type {
        case .integer, .decimal, .double, .boolean:
            return Double(text).map { String($0) } ?? text
        case .timestamp:
            return Double(text).map { String($0) } ?? text
        case .floatingTimestamp:
            // PostgreSQL writes `2014-06-01 00:00:00`, SQLite keeps `2014-06-01T00:00:00`.
            var value = text.replacingOccurrences(of: " ", with: "T")
            if value.count == 10 { value += "T00:00:00" }
            if value.count == 16 { value += ":00" }
            return value
        case .json:
            return canonicalJSON(text)
        default:
            return text
        }
    }

    static func normalized(_ value: DatabaseValue, _ type: LogicalType) -> String? {
        switch value {
        case .null: return nil
        case .integer(let integer): return normalized(String(integer), type, fromPostgreSQL: false)
        case .real(let real): return normalized(String(real), type, fromPostgreSQL: false)
        case .text(let text):
            if type == .timestamp, let date = ISO8601Timestamp.parse(text) { return String(date.timeIntervalSince1970) }
            return normalized(text, type, fromPostgreSQL: false)
        case .blob: return "blob"
        }
    }

    static func canonicalJSON(_ text: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return text }
        return String(decoding: data, as: UTF8.self)
    }
}
