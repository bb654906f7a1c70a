/// Names longer than a destination takes (PostgreSQL: 63 bytes) are shortened in the plan itself,
/// before the load, so every later step — the DDL, the catalog's column mapping, `select`,
/// `info` — sees the one name the table really has.
extension LoadPlan {
    /// The plan with every table, column and index name longer than `limit` UTF-8 bytes
    /// shortened to `limit` bytes: its start (cut at a character boundary), `_`, and eight hex
    /// digits of a hash of the whole name, so the same long name always gets the same short one
    /// and two long names that share a start stay apart. Keys and foreign keys follow.
    ///
    ///     let short = LoadPlan.shortenedName(String(repeating: "a", count: 80), toBytes: 63)
    public func withNamesShortened(toBytes limit: Int) -> LoadPlan {
        var plan = self
        let tableNames = Dictionary(tables.map { ($0.name, Self.shortenedName($0.name, toBytes: limit)) },
                                    uniquingKeysWith: { first, _ in first })
        for tableIndex in plan.tables.indices {
            var table = plan.tables[tableIndex]
            let columnNames = Dictionary(table.columns.map { ($0.name, Self.shortenedName($0.name, toBytes: limit)) },
                                         uniquingKeysWith: { first, _ in first })
            func renamed(_ names: [String]) -> [String] { names.map { columnNames[$0] ?? $0 } }
            table.name = tableNames[table.name] ?? table.name
            for index in table.columns.indices { table.columns[index].name = columnNames[table.columns[index].name]! }
            table.primaryKey = renamed(table.primaryKey)
            table.distributionColumn = table.distributionColumn.map { columnNames[$0] ?? $0 }
            table.uniqueKeys = table.uniqueKeys.map(renamed)
            table.fullText = table.fullText.map { PlanFullText(columns: renamed($0.columns)) }
            for index in table.foreignKeys.indices {
                table.foreignKeys[index].columns = renamed(table.foreignKeys[index].columns)
                table.foreignKeys[index].referencedTable = tableNames[table.foreignKeys[index].referencedTable]
                    ?? table.foreignKeys[index].referencedTable
            }
            for index in table.indexes.indices {
                table.indexes[index].name = Self.shortenedName(table.indexes[index].name, toBytes: limit)
                table.indexes[index].columns = renamed(table.indexes[index].columns)
            }
            for index in table.lookups.indices {
                var lookup = table.lookups[index]
                lookup.table = Self.shortenedName(lookup.table, toBytes: limit)
                lookup.foreignKey = Self.shortenedName(lookup.foreignKey, toBytes: limit)
                for column in lookup.columns.indices { lookup.columns[column].name = columnNames[lookup.columns[column].name] ?? lookup.columns[column].name }
                lookup.countColumn = lookup.countColumn.map { Self.shortenedName($0, toBytes: limit) }
                for count in lookup.distinctCounts.indices {
                    lookup.distinctCounts[count].countColumn = Self.shortenedName(lookup.distinctCounts[count].countColumn, toBytes: limit)
                    let source = lookup.distinctCounts[count].sourceColumn
                    lookup.distinctCounts[count].sourceColumn = columnNames[source] ?? Self.shortenedName(source, toBytes: limit)
                }
                table.lookups[index] = lookup
            }
            if var glue = table.glue {
                glue.table = tableNames[glue.table] ?? glue.table
                glue.otherTable = Self.shortenedName(glue.otherTable, toBytes: limit)
                glue.otherKey = Self.shortenedName(glue.otherKey, toBytes: limit)
                for path in [\PlanGlue.tableColumn, \.otherColumn, \.assertedColumn, \.otherAssertedColumn] {
                    glue[keyPath: path] = columnNames[glue[keyPath: path]] ?? Self.shortenedName(glue[keyPath: path], toBytes: limit)
                }
                table.glue = glue
            }
            plan.tables[tableIndex] = table
        }
        // A foreign key's referenced columns are the other table's, renamed there.
        for tableIndex in plan.tables.indices {
            for index in plan.tables[tableIndex].foreignKeys.indices {
                plan.tables[tableIndex].foreignKeys[index].referencedColumns =
                    plan.tables[tableIndex].foreignKeys[index].referencedColumns.map { Self.shortenedName($0, toBytes: limit) }
            }
        }
        if var options = plan.options {
            options.tableName = tableNames[options.tableName] ?? options.tableName
            plan.options = options
        }
        return plan
    }

    /// `name` itself when it fits in `limit` UTF-8 bytes, else its start, `_` and eight hex
    /// digits of its FNV-1a hash, `limit` bytes in all.
    public static func shortenedName(_ name: String, toBytes limit: Int) -> String {
        guard name.utf8.count > limit, limit > 9 else { return name }
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        var start = ""
        var bytes = 0
        for character in name.unicodeScalars {
            let size = String(character).utf8.count
            if bytes + size > limit - 9 { break }
            start.unicodeScalars.append(character)
            bytes += size
        }
        let hex = String(hash, radix: 16)
        return start + "_" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
