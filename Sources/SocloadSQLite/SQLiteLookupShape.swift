import SocloadCore
import SocloadDatabase

/// An existing table may serve as a lookup only when it has a lookup's shape: an
/// `INTEGER PRIMARY KEY` `id` (so new values get ids), the value columns, unique together, and
/// no other column a new row must fill. Anything else — a `TEXT` key, a missing column, values
/// that are not unique — would leave rows without their foreign key, so it is refused before
/// anything is written.
struct SQLiteLookupShape {
    private struct Column: Decodable {
        var name: String
        var type: String
        var pk: Int
        var notnull: Int
        var dflt_value: String?
    }

    private struct Index: Decodable {
        var name: String
        var unique: Int
    }

    let db: Database

    /// Throws `LoadError.unsupported` naming what does not fit; `columns` are the table's.
    func check(_ lookup: PlanLookup, counts: [String]) throws {
        let columns = try db.fetchAll(Column.self, sql: "SELECT name, type, pk, \"notnull\", dflt_value FROM pragma_table_info(?)",
                                      arguments: [lookup.table])
        func refuse(_ reason: String) -> LoadError {
            .unsupported("\(lookup.table) exists and is not a lookup of \(lookup.valueColumns.joined(separator: ", ")): \(reason); "
                         + "a lookup table has an INTEGER PRIMARY KEY id and the value columns, unique together "
                         + "(name the lookup otherwise: --into)")
        }
        func named(_ name: String) -> Column? { columns.first { $0.name.lowercased() == name.lowercased() } }
        guard let id = named(PlanLookup.keyColumn) else { throw refuse("it has no column \(PlanLookup.keyColumn)") }
        guard id.type.uppercased() == "INTEGER", id.pk == 1, !columns.contains(where: { $0.pk > 1 }) else {
            throw refuse("its \(PlanLookup.keyColumn) is not an INTEGER PRIMARY KEY (it is \(id.type.isEmpty ? "untyped" : id.type)"
                         + "\(id.pk == 0 ? ", not the key" : columns.contains { $0.pk > 1 } ? ", part of a compound key" : ""))")
        }
        for column in lookup.valueColumns where named(column) == nil {
            throw refuse("it has no column \(column)")
        }
        let known = Set(([PlanLookup.keyColumn] + lookup.valueColumns + counts).map { $0.lowercased() })
        if let required = columns.first(where: { !known.contains($0.name.lowercased()) && $0.notnull == 1 && $0.dflt_value == nil }) {
            throw refuse("its column \(required.name) is NOT NULL without a default, so no value could be added")
        }
        guard try hasUniqueIndex(over: lookup) else {
            throw refuse("no unique index or constraint over \(lookup.valueColumns.joined(separator: ", ")) alone")
        }
    }

    /// A unique index over exactly the value columns, or socload's own over their expressions.
    private func hasUniqueIndex(over lookup: PlanLookup) throws -> Bool {
        let wanted = Set(lookup.valueColumns.map { $0.lowercased() })
        for index in try db.fetchAll(Index.self, sql: "SELECT name, \"unique\" FROM pragma_index_list(?)", arguments: [lookup.table])
        where index.unique == 1 {
            if index.name.lowercased() == ("_socload_unique_" + lookup.table).lowercased() { return true }
            let names = try db.fetchAll(String?.self, sql: "SELECT name FROM pragma_index_info(?)", arguments: [index.name])
            if names.count == wanted.count, Set(names.compactMap { $0?.lowercased() }) == wanted { return true }
        }
        return false
    }
}
