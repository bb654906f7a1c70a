import SocloadCore

/// Collects a new table's rows; `finish` checks the key and puts the table in the load's state.
final class NDJSONTableWriter: TableWriter {
    let table: PlanTable
    let transaction: NDJSONTransaction
    private var rows: [[CellValue]] = []

    init(table: PlanTable, transaction: NDJSONTransaction) {
        self.table = table
        self.transaction = transaction
    }

    func insert(_ batch: RowBatch) throws {
        for index in 0..<batch.rowCount { rows.append(batch.row(index)) }
    }

    func finish(strict: Bool) throws -> [String] {
        let columns = table.storedColumns.map(\.name)
        let key = table.primaryKey.compactMap { columns.firstIndex(of: $0) }
        if !key.isEmpty {
            var firstRow: [[CellValue]: Int] = [:]
            for (number, row) in rows.enumerated() {
                let value = key.map { row[$0] }
                if let first = firstRow[value] {
                    throw table.duplicateKeyError(values: value.map(NDJSONTableWriter.text), rows: [first + 1, number + 1])
                }
                firstRow[value] = number
            }
        }
        transaction.state.tables[table.name] = NDJSONTable(columns: columns, rows: rows)
        transaction.state.dropped.remove(table.name)
        return []
    }

    /// A value as the text a key shows (nil: NULL).
    static func text(_ value: CellValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text), .decimal(let text): return text
        }
    }
}

/// Inserts or replaces rows of an existing table by its key (sync).
final class NDJSONUpserter: RowUpserter {
    let table: PlanTable
    let transaction: NDJSONTransaction
    /// `sync --deletes`: the keys the portal still has.
    private var keys: Set<[CellValue]> = []

    init(table: PlanTable, transaction: NDJSONTransaction) {
        self.table = table
        self.transaction = transaction
    }

    func upsert(_ batch: RowBatch) throws -> Int {
        guard var stored = transaction.state.tables[table.name] else { throw LoadError.tableMissing(table.name) }
        let key = table.primaryKey.compactMap { stored.columns.firstIndex(of: $0) }
        var inserted = 0
        for index in 0..<batch.rowCount {
            let row = batch.row(index)
            if let existing = stored.rows.firstIndex(where: { old in key.allSatisfy { old[$0] == row[$0] } }), !key.isEmpty {
                stored.rows[existing] = row
            } else {
                stored.rows.append(row)
                inserted += 1
            }
        }
        transaction.state.tables[table.name] = stored
        return inserted
    }

    func largestValue(of column: String) throws -> String? {
        guard let stored = transaction.state.tables[table.name], let index = stored.columns.firstIndex(of: column) else { return nil }
        return stored.rows.compactMap { NDJSONTableWriter.text($0[index]) }.max()
    }

    func rowCount() throws -> Int {
        transaction.state.tables[table.name]?.rows.count ?? 0
    }

    func addIndex(_ index: PlanIndex) throws {}

    func finish() throws {}

    func beginKeySet() throws {
        keys = []
    }

    func addKeys(_ batch: RowBatch) throws {
        for index in 0..<batch.rowCount { keys.insert(batch.row(index)) }
    }

    private func outside() throws -> (NDJSONTable, [Int]) {
        guard let stored = transaction.state.tables[table.name] else { throw LoadError.tableMissing(table.name) }
        let key = table.primaryKey.compactMap { stored.columns.firstIndex(of: $0) }
        return (stored, stored.rows.indices.filter { row in !keys.contains(key.map { column in stored.rows[row][column] }) })
    }

    func countRowsOutsideKeySet() throws -> Int {
        try outside().1.count
    }

    func deleteRowsOutsideKeySet() throws -> Int {
        var (stored, gone) = try outside()
        gone.sort()
        for index in gone.reversed() { stored.rows.remove(at: index) }
        transaction.state.tables[table.name] = stored
        keys = []
        return gone.count
    }
}
