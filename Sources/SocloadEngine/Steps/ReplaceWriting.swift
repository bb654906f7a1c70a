import SocloadCore

/// The writing side of a replace, for every table of the plan: the main table's new copy (its
/// `TableReplacement`), new copies of its child tables, and its glue tables' links (upserted, as
/// they are shared with the other table). The child tables of the earlier load whose fields are
/// gone are dropped when the writing finishes.
public final class ReplaceWriting {
    private let replacement: TableReplacement
    private let transaction: any LoadTransaction
    /// Every table's writer, by the table's place in the plan.
    private var writers: [Int: any TableWriter]
    private var rowCounts: [Int: Int] = [:]

    /// Opens the writers of the child and glue tables of `replacement`'s plan.
    public init(_ replacement: TableReplacement, transaction: any LoadTransaction) throws {
        self.replacement = replacement
        self.transaction = transaction
        writers = [0: replacement.writer]
        let plan = replacement.plan
        for index in plan.tables.indices.dropFirst() where plan.tables[index].nesting != nil {
            let table = plan.tables[index]
            let old = replacement.previousPlan?.tables.first { $0.name.lowercased() == table.name.lowercased() }
            writers[index] = table.glue == nil ? try transaction.replaceTable(table, previous: old)
                : try transaction.glueWriter(for: table)
        }
    }

    /// The main table's rows written so far.
    public var mainRows: Int { rowCounts[0] ?? 0 }

    /// The child and glue tables with their rows, in the plan's order.
    public var childTables: [ChildTableCount] {
        writers.keys.sorted().dropFirst().map { ChildTableCount(replacement.plan.tables[$0].name, rowCounts[$0] ?? 0) }
    }

    /// Rows of the plan table at `index`.
    public func write(_ batch: RowBatch, table index: Int) throws {
        try writers[index]?.insert(batch)
        rowCounts[index, default: 0] += batch.rowCount
    }

    /// Builds the main table's keys and indexes; what could not be rebuilt.
    public func finishMainTable(strict: Bool) throws -> [String] {
        try replacement.writer.finish(strict: strict)
    }

    /// Drops the child tables of the earlier load whose fields are gone and finishes the child
    /// and glue tables; `skipped` counts, per glue table, the elements that were no link.
    public func finishNestedTables(strict: Bool, skipped: [Int: Int]) throws -> [String] {
        var notes: [String] = []
        let plan = replacement.plan
        let current = Set(plan.tables.map { $0.name.lowercased() })
        for old in replacement.previousPlan?.tables.dropFirst() ?? [] where old.nesting != nil && old.glue == nil
            && !current.contains(old.name.lowercased()) {
            do {
                try transaction.withSavepoint { try transaction.dropTable(old.name) }
            } catch {
                notes.append("the child table \(old.name) of an earlier load could not be dropped (\(error))")
            }
        }
        for index in writers.keys.sorted() where index > 0 {
            let table = plan.tables[index]
            notes += try writers[index]?.finish(strict: strict) ?? []
            if let count = skipped[index], count > 0, let glue = table.glue, let field = table.nesting?.arrayField {
                notes.append("\(table.name): \(count) element\(count == 1 ? "" : "s") of \(field) "
                             + "without \(glue.idField) skipped (not links)")
            }
        }
        return notes
    }
}
