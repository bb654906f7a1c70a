
/// Lookups on a plan table: the columns it stores, and how an extraction is checked and added.
extension PlanTable {
    /// The columns the destination's table holds: each lookup's foreign key (an integer) in
    /// place of its first value column, its other value columns left out.
    public var storedColumns: [PlanColumn] {
        var stored: [PlanColumn] = []
        var placed = Set<String>()
        for column in columns {
            guard let lookup = lookup(extracting: column.name) else {
                stored.append(column)
                continue
            }
            if placed.insert(lookup.table.lowercased()).inserted {
                stored.append(PlanColumn(name: lookup.foreignKey, type: .integer, source: column.source))
            }
        }
        return stored
    }

    /// The logical type of every column a condition on this table can name: those it stores,
    /// and its lookups' value columns (reached through `RowFilter.related`). What
    /// `ConditionWriter` needs to apply the date rules on every database alike.
    public var conditionColumnTypes: [String: LogicalType] {
        Dictionary((storedColumns + lookups.flatMap(\.columns)).map { ($0.name, $0.type) },
                   uniquingKeysWith: { first, _ in first })
    }

    /// The stored column with that name (compared as destinations compare names).
    public func storedColumn(named name: String) -> PlanColumn? {
        storedColumns.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The lookup a column was extracted into, if any.
    public func lookup(extracting column: String) -> PlanLookup? {
        lookups.first { lookup in lookup.columns.contains { $0.name.lowercased() == column.lowercased() } }
    }

    /// The lookup with that table name, if any.
    public func lookup(named table: String) -> PlanLookup? {
        lookups.first { $0.table.lowercased() == table.lowercased() }
    }

    /// Extracts columns into a lookup table, after checking that the names fit: the columns are
    /// stored columns that are not the key, the distribution column or already extracted; the
    /// foreign key and the lookup's columns are free names; an OTHER of a distinct count is
    /// another column (counted through its foreign key when it was extracted too). An index of
    /// the table over an extracted column moves to the foreign key (`idx_t_agency` becomes
    /// `idx_t_agency_id`).
    public mutating func extract(_ extraction: Extraction) throws {
        let spec = extraction.spec
        func fail(_ reason: String) -> PlanError { PlanError("--extract \(spec): \(reason)") }
        let stored = storedColumns
        var values: [PlanColumn] = []
        for name in extraction.columns {
            guard let column = column(named: name), stored.contains(where: { $0.name == column.name }) else {
                if let lookup = lookup(extracting: name) {
                    throw fail("\(name) was extracted into \(lookup.table) already (its key is \(lookup.foreignKey))")
                }
                throw fail("\(self.name) has no column '\(name)' (its columns: \(stored.map(\.name).shortList()))")
            }
            guard !values.contains(where: { $0.name == column.name }) else { throw fail("\(column.name) is named twice") }
            if primaryKey.contains(column.name) { throw fail("\(column.name) is part of \(self.name)'s key") }
            if distributionColumn == column.name { throw fail("\(self.name) is distributed by \(column.name)") }
            if column.type == .geometry { throw fail("\(column.name) is a geometry, which is not looked up by value") }
            if fullText?.columns.contains(column.name) == true {
                throw fail("\(column.name) is in the full-text index of \(self.name) (--fts), which indexes the table's own columns")
            }
            values.append(column)
        }
        let lookupName = extraction.table ?? values.map(\.name).joined(separator: "_")
        let lowered = lookupName.lowercased()
        if lookupName.isEmpty || lowered.hasPrefix("sqlite_") || lowered.hasPrefix("_socload_") || lookupName.contains("\u{0}") {
            throw fail("\(JSONValue.quoted(lookupName)) cannot be a table name")
        }
        if lowered == name.lowercased() { throw fail("the lookup cannot be \(name) itself") }
        if let other = lookup(named: lookupName) {
            throw fail("\(other.table) is already the lookup of \(other.valueColumns.joined(separator: ", "))")
        }
        let foreignKey = lookupName + "_" + PlanLookup.keyColumn
        let replaced = Set(values.map { $0.name.lowercased() })
        if let clash = stored.first(where: { $0.name.lowercased() == foreignKey.lowercased() && !replaced.contains($0.name.lowercased()) }) {
            throw fail("\(self.name) has a column \(clash.name) already; name the lookup otherwise (--into)")
        }
        var lookupColumns = [PlanLookup.keyColumn] + values.map(\.name)
        var countColumn: String?
        if extraction.count {
            countColumn = name + "_count"
            lookupColumns.append(countColumn!)
        }
        var distinctCounts: [PlanDistinctCount] = []
        for other in extraction.countDistinct {
            let counted: String
            if let column = stored.first(where: { $0.name.lowercased() == other.lowercased() }) {
                counted = column.name
            } else if let lookup = lookup(extracting: other), lookup.columns.count == 1 {
                counted = lookup.foreignKey
            } else {
                throw fail("+distinct=\(other): \(name) has no column '\(other)'")
            }
            if replaced.contains(counted.lowercased()) {
                throw fail("+distinct=\(other): \(other) is one of the extracted columns")
            }
            let count = PlanDistinctCount(sourceColumn: counted, countColumn: other + "_count")
            lookupColumns.append(count.countColumn)
            distinctCounts.append(count)
        }
        var seen = Set<String>()
        for column in lookupColumns where !seen.insert(column.lowercased()).inserted {
            throw fail("the lookup \(lookupName) would have two columns named \(column)")
        }
        // A distinct count over a column extracted now counts its foreign key from here on.
        for index in lookups.indices {
            for countIndex in lookups[index].distinctCounts.indices
            where replaced.contains(lookups[index].distinctCounts[countIndex].sourceColumn.lowercased()) {
                guard values.count == 1 else {
                    throw fail("\(lookups[index].table) counts distinct \(lookups[index].distinctCounts[countIndex].sourceColumn), "
                               + "which cannot move into a lookup of several columns")
                }
                lookups[index].distinctCounts[countIndex].sourceColumn = foreignKey
            }
        }
        // An index over extracted columns moves to the foreign key that stands for them.
        for index in indexes.indices where indexes[index].columns.contains(where: { replaced.contains($0.lowercased()) }) {
            var moved: [String] = []
            for column in indexes[index].columns {
                let name = replaced.contains(column.lowercased()) ? foreignKey : column
                if !moved.contains(name) { moved.append(name) }
            }
            indexes[index] = PlanIndex(name: "idx_\(self.name)_\(moved.joined(separator: "_"))", columns: moved,
                                       isUnique: indexes[index].isUnique)
        }
        lookups.append(PlanLookup(table: lookupName, columns: values, foreignKey: foreignKey, countColumn: countColumn,
                                  distinctCounts: distinctCounts, prune: extraction.prune))
    }
}
