/// How rows made for a new document's own plan table go into a table socload loaded before
/// (`load --mode append|upsert`): the stored table's columns the rows have, matched by name
/// (as destinations compare names) and written with the stored type, so each value is still
/// converted once, to what the table holds. An arriving column whose values the stored type
/// cannot hold is a mismatch; one the table lacks is an addition (`--on-schema-change evolve`
/// adds it); a stored column the rows lack is missing (NULL in appended rows, its value kept
/// by an upsert).
///
///     let merge = TableMerge(stored: stored, arriving: arriving)
///     let refused = merge.mismatches // ["column n: big holds integer, the records have text"]
public struct TableMerge: Sendable {
    /// The table as the merged rows are written: the stored columns they have (stored name and
    /// type, the arriving source), in the stored order, then the added ones; the stored key, and
    /// the stored lookups whose columns the rows all have.
    public private(set) var table: PlanTable
    /// Arriving columns the table does not have, with their arriving types.
    public private(set) var added: [PlanColumn] = []
    /// Stored columns (not socload's own) the arriving rows do not have.
    public private(set) var missing: [String] = []
    /// One line per arriving column the table cannot take:
    /// `column n: big holds integer, the records have text`.
    public private(set) var mismatches: [String] = []

    /// `alwaysNull`: arriving columns whose every value was null, which fit any type.
    /// `wholeRows`: the merged rows replace whole rows (a child table's elements: an upserted
    /// parent's child rows are its record's elements), so a stored column the rows lack is
    /// written NULL rather than kept, and is not missing.
    public init(stored: PlanTable, arriving: PlanTable, alwaysNull: Set<String> = [], wholeRows: Bool = false) {
        func key(_ name: String) -> String { name.lowercased() }
        let arrivingByName = Dictionary(arriving.columns.map { (key($0.name), $0) }, uniquingKeysWith: { first, _ in first })
        var columns: [PlanColumn] = []
        for column in stored.columns {
            guard let match = arrivingByName[key(column.name)] else {
                if wholeRows {
                    var written = column
                    written.source = .absent
                    columns.append(written)
                } else if case .absent = column.source {} else {
                    missing.append(column.name)
                }
                continue
            }
            if column.type != match.type, !column.type.holds(match.type), !alwaysNull.contains(match.name) {
                mismatches.append("column \(column.name): \(stored.name) holds \(column.type.rawValue), "
                                  + "the records have \(match.type.rawValue)")
            }
            var written = column
            written.source = match.source
            columns.append(written)
        }
        let storedNames = Set(stored.columns.map { key($0.name) })
        added = arriving.columns.filter { !storedNames.contains(key($0.name)) }
        table = stored
        table.columns = columns
        let present = Set(columns.map { key($0.name) })
        for name in stored.primaryKey where !present.contains(key(name)) {
            mismatches.append("column \(name): the records do not have it, and it is the key of \(stored.name)")
        }
        table.lookups = stored.lookups.filter { lookup in
            let have = lookup.columns.filter { present.contains(key($0.name)) }
            if !have.isEmpty, have.count < lookup.columns.count {
                mismatches.append("columns \(lookup.columns.map(\.name).joined(separator: ", ")): extracted together into "
                                  + "\(lookup.table), and the records have only \(have.map(\.name).joined(separator: ", "))")
            }
            return have.count == lookup.columns.count
        }
    }

    /// The table with `added` columns written too (after `ALTER TABLE ... ADD COLUMN`).
    public mutating func addColumns() {
        table.columns += added
    }

    /// True when the rows have every stored column: a merged row is a whole row.
    public var isComplete: Bool { missing.isEmpty }
}

extension LogicalType {
    /// True when a column of this type can store every value of `other`, as the converter
    /// writes it: anything as text or JSON, whole numbers as decimals or doubles, decimals as
    /// doubles, a day as a timestamp, GeoJSON or WKT as a geometry.
    public func holds(_ other: LogicalType) -> Bool {
        if self == other { return true }
        switch (self, other) {
        case (.text, _), (.json, _): return true
        case (.double, .integer), (.double, .decimal), (.decimal, .integer): return true
        case (.timestamp, .date), (.floatingTimestamp, .date): return true
        case (.geometry, .json), (.geometry, .text): return true
        default: return false
        }
    }
}
