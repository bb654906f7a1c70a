import Foundation
import Glibc
import SocloadCore

/// The files of an NDJSON destination's directory: `TABLE.ndjson` (a row per line, an object
/// with the table's columns in order), `TABLE.columns.json` (the column names and whether each
/// holds exact decimals), `_socload_datasets.ndjson` (a catalog entry per line).
struct NDJSONFiles {
    let directory: URL
    static let catalogFile = "_socload_datasets.ndjson"
    static let schemaChangesFile = "_socload_schema_changes.ndjson"
    static let refreshesFile = "_socload_refreshes.ndjson"

    private struct Columns: Codable {
        var names: [String]
        var decimal: [Bool]
    }

    func read() throws -> NDJSONState {
        var state = NDJSONState()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in names where file.hasSuffix(".columns.json") {
            let table = String(file.dropLast(".columns.json".count))
            let columns = try JSONDecoder().decode(Columns.self, from: Data(contentsOf: url(file)))
            let rows = try lines(of: table + ".ndjson").map { line -> [CellValue] in
                guard case .object(let members)? = line.withUnsafeBufferPointer(JSONValueParser.value(of:)) else {
                    throw LoadError.unreadableFile(path: url(table + ".ndjson").path, reason: "a line is not a JSON object")
                }
                return zip(members, columns.decimal).map { member, isDecimal in Self.cell(member.value, decimal: isDecimal) }
            }
            state.tables[table] = NDJSONTable(columns: columns.names, rows: rows)
        }
        state.catalog = try lines(of: Self.catalogFile).map { try JSONDecoder().decode(CatalogEntry.self, from: Data($0)) }
        state.schemaChanges = try lines(of: Self.schemaChangesFile).map { try JSONDecoder().decode(RecordedSchemaChange.self, from: Data($0)) }
        state.refreshes = try lines(of: Self.refreshesFile).map { try JSONDecoder().decode(RefreshRecord.self, from: Data($0)) }
        return state
    }

    /// Writes every table and the catalog, each to a temporary file renamed over the old one, and
    /// removes the files of dropped tables.
    func write(_ state: NDJSONState) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let decimals = Set(state.catalog.compactMap(\.plan).flatMap(\.tables).flatMap { table in
            table.storedColumns.filter { $0.type == .decimal }.map { table.name + "." + $0.name }
        })
        for (name, table) in state.tables {
            var text = ""
            for row in table.rows {
                text += "{" + zip(table.columns, row).map { JSONValue.quoted($0) + ":" + Self.json($1) }.joined(separator: ",") + "}\n"
            }
            try replace(name + ".ndjson", with: Data(text.utf8))
            let columns = Columns(names: table.columns, decimal: table.columns.map { decimals.contains(name + "." + $0) })
            try replace(name + ".columns.json", with: JSONEncoder().encode(columns))
        }
        for name in state.dropped where state.tables[name] == nil {
            try? FileManager.default.removeItem(at: url(name + ".ndjson"))
            try? FileManager.default.removeItem(at: url(name + ".columns.json"))
        }
        let catalog = try state.catalog.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) + "\n" }.joined()
        try replace(Self.catalogFile, with: Data(catalog.utf8))
        let changes = try state.schemaChanges.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) + "\n" }.joined()
        try replace(Self.schemaChangesFile, with: Data(changes.utf8))
        let refreshes = try state.refreshes.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) + "\n" }.joined()
        try replace(Self.refreshesFile, with: Data(refreshes.utf8))
    }

    private func url(_ file: String) -> URL { directory.appendingPathComponent(file) }

    private func lines(of file: String) throws -> [[UInt8]] {
        guard FileManager.default.fileExists(atPath: url(file).path) else { return [] }
        return try Data(contentsOf: url(file)).split(separator: UInt8(ascii: "\n")).map(Array.init)
    }

    private func replace(_ file: String, with data: Data) throws {
        let temporary = url(file + ".tmp")
        try data.write(to: temporary)
        // rename(2) replaces the old file in one step: a reader sees the old or the new, never half.
        guard rename(temporary.path, url(file).path) == 0 else {
            throw LoadError.unreadableFile(path: url(file).path, reason: String(cString: strerror(errno)))
        }
    }

    static func json(_ value: CellValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return JSONValue.quoted(text)
        case .decimal(let digits): return digits
        }
    }

    static func cell(_ value: JSONValue, decimal: Bool) -> CellValue {
        switch value {
        case .number(let text):
            if let integer = Int64(text) { return .integer(integer) }
            return decimal ? .decimal(text) : .real(Double(text) ?? .nan)
        case .string(let text): return .text(text)
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .null, .array, .object: return .null
        }
    }
}
