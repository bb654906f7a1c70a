extension PlanTable {
    /// What a request asks of a new table, in order: its key (`--pk`), its extractions into
    /// lookups, its `--index`es, its distribution column, its GeoPackage geometry, its
    /// full-text index (`--fts`). The same for every source.
    public mutating func apply(_ options: PlanOptions) throws {
        if let key = options.primaryKey {
            try setKey(key)
        }
        for extraction in options.extractions {
            try extract(extraction)
        }
        for list in options.indexes {
            indexes.append(try LoadPlan.index(on: list, in: self))
        }
        if let column = options.distributeBy {
            try distribute(by: column)
        }
        if let column = options.geometryColumn {
            try chooseGeometry(column)
        }
        if let columns = options.fullTextColumns {
            try indexFullText(columns)
        }
    }

    /// Makes the place `name` the table's one geometry in a GeoPackage (`--geometry`): a
    /// location, point, line or polygon column of the table.
    public mutating func chooseGeometry(_ name: String) throws {
        let places = PlanGeometry.all(in: self)
        guard let place = places.first(where: { $0.sourceColumn.lowercased() == name.lowercased() }) else {
            let choices = places.isEmpty ? "it has no location, point, line or polygon column"
                : "its places: \(places.map(\.sourceColumn).shortList())"
            throw PlanError("--geometry \(name): \(self.name) has no place '\(name)' (\(choices))")
        }
        geometryColumn = place.sourceColumn
    }
    /// Makes these columns the table's key (`--pk`), instead of the row identifier: each must
    /// exist (matched as destinations match names) and appear once.
    public mutating func setKey(_ names: [String]) throws {
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw PlanError("--pk needs one or more column names separated by commas")
        }
        var key: [String] = []
        for name in names {
            guard let column = column(named: name) else {
                throw PlanError("--pk \(names.shortList(separator: ",")): \(self.name) has no column '\(name)' "
                                + "(its columns: \(columns.map(\.name).shortList()))")
            }
            if let lookup = lookup(extracting: column.name) {
                throw PlanError("--pk \(names.shortList(separator: ",")): \(column.name) was extracted into \(lookup.table)")
            }
            guard !key.contains(column.name) else {
                throw PlanError("--pk \(names.shortList(separator: ",")): \(column.name) is named twice")
            }
            key.append(column.name)
        }
        primaryKey = key
    }

    /// Distributes the table by `name` (see `distributionColumn`), after checking what a
    /// distributed table needs: the column exists, and the key includes it — a key without it
    /// could not be unique across servers, and an upsert could never move a row between them.
    public mutating func distribute(by name: String) throws {
        guard let column = column(named: name) else {
            throw PlanError("--distribute-by \(name): \(self.name) has no column '\(name)' "
                            + "(its columns: \(columns.map(\.name).shortList()))")
        }
        guard primaryKey.contains(column.name) else {
            let key = primaryKey.isEmpty ? "no key" : "the key (\(primaryKey.joined(separator: ", ")))"
            let instead = primaryKey.count == 1 ? "; pass --distribute-by \(primaryKey[0]) instead" : ""
            throw PlanError("--distribute-by \(name): a distributed table's unique key must include its distribution "
                            + "column, and \(self.name) has \(key)\(instead)")
        }
        distributionColumn = column.name
    }
}

extension LoadPlan {
    /// An index over existing columns, named as sqlite-utils names them: `idx_TABLE_COL_COL`.
    /// The `--index` over these columns (names matched as destinations match them).
    public static func index(on columns: [String], in table: PlanTable) throws -> PlanIndex {
        guard !columns.isEmpty, !columns.contains(where: \.isEmpty) else {
            throw PlanError("--index needs one or more column names separated by commas")
        }
        var resolved: [String] = []
        for name in columns {
            guard let column = table.storedColumn(named: name) else {
                if let lookup = table.lookup(extracting: name) {
                    throw PlanError("--index \(columns.shortList(separator: ",")): \(name) was extracted into \(lookup.table); "
                                    + "index \(lookup.foreignKey) instead")
                }
                throw PlanError("--index \(columns.shortList(separator: ",")): \(table.name) has no column '\(name)' "
                                + "(its columns: \(table.storedColumns.map(\.name).shortList()))")
            }
            resolved.append(column.name)
        }
        return PlanIndex(name: "idx_\(table.name)_\(resolved.joined(separator: "_"))", columns: resolved)
    }
}
