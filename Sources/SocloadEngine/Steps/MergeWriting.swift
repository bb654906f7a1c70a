import SocloadCore

/// The writing side of an append or upsert (`load --mode append|upsert`), once the plan it writes
/// by is settled: every table's rows upserted by the table's place in the plan, an upserted
/// parent's child rows replaced by its record's elements (`ChildRowsRefresh`), a glue table's
/// links withdrawn only for the parents written (`NotedKeys`), keys already present refused on an
/// append, and the main table's batches gathered into large ones (each one costs the upserter
/// and the change tracker a few statements of their own: 200 small ones made a 200,000-row
/// upsert into PostgreSQL take 14 s, large ones 4 s).
public final class MergeWriting {
    /// What was written into one table: its records, and of those the rows whose key was new.
    public struct Counts: Sendable, Equatable {
        public var records = 0
        public var inserted = 0
    }

    /// What the writing ended with.
    public struct Ending {
        /// The main table's records and new keys.
        public var written: Counts
        /// The child and glue tables with their records, by their place in the plan.
        public var childTables: [ChildTableCount]
        /// Things the user should know (child elements removed, glue notes).
        public var notes: [String]
    }

    private let plan: LoadPlan
    private let mode: DocumentLoadMode
    private let upserter: any RowUpserter
    private var children: [Int: (upserter: any RowUpserter, refresh: ChildRowsRefresh?)] = [:]
    private var glues: [Int: (writer: any TableWriter, parents: NotedKeys)] = [:]
    private var counts: [Int: Counts] = [:]
    private var gathered: RowBatch?

    /// The main table's records written so far (gathered ones not yet).
    public var recordsWritten: Int { counts[0]?.records ?? 0 }

    /// Opens the writers of every table of `plan` (the settled plan the rows are made by);
    /// `tracker` follows the main table's rows (nil: not counted).
    public init(plan: LoadPlan, mode: DocumentLoadMode, tracker: SyncChangeTracker?, sql: any SQLExecuting,
                transaction: any LoadTransaction) throws {
        self.plan = plan
        self.mode = mode
        let main = plan.mainTable
        let base = try transaction.upserter(for: main)
        upserter = tracker?.upserter(wrapping: base) ?? base
        for index in plan.tables.indices.dropFirst() where plan.tables[index].nesting != nil && plan.tables[index].glue == nil {
            let child = plan.tables[index]
            children[index] = (try transaction.upserter(for: child),
                               mode == .upsert ? try ChildRowsRefresh(sql: sql, parent: main, child: child) : nil)
        }
        // A glue table's links are upserted as on a replace, but only the links of the rows
        // written are withdrawn first: the parents' keys are noted as they go by.
        for index in plan.tables.indices.dropFirst() where plan.tables[index].glue != nil {
            let table = plan.tables[index]
            guard main.primaryKey.count == 1, let position = main.columns.firstIndex(where: { $0.name == main.primaryKey[0] }) else {
                throw LoadError.unsupported("\(table.name): a glue table needs a one-column key of \(main.name)")
            }
            let parents = try NotedKeys(sql: sql, name: "_socload_glue_parents_" + table.name, columns: [main.columns[position]],
                                        positions: [position])
            glues[index] = (try transaction.glueWriter(for: table, onlyFor: parents), parents)
        }
    }

    /// Rows of the plan table at `index` (the main table's are gathered first).
    public func write(_ batch: RowBatch, table index: Int) throws {
        guard index == 0 else { return try writeNow(batch, into: index) }
        if gathered == nil { gathered = batch } else { gathered?.append(batch) }
        if let full = gathered, full.rowCount >= 16_384 || full.arena.count >= 8 << 20 { try flushGathered() }
    }

    /// Writes what is gathered, finishes every writer; the table's row count after.
    public func finish(strict: Bool) throws -> Ending {
        try flushGathered()
        try upserter.finish()
        var childCounts: [ChildTableCount] = []
        var notes: [String] = []
        for index in children.keys.sorted() {
            try children[index]?.upserter.finish()
            let removed = try children[index]?.refresh?.finish() ?? 0
            let table = plan.tables[index]
            childCounts.append(ChildTableCount(table.name, counts[index]?.records ?? 0))
            if removed > 0 { notes.append("\(table.name): \(removed) element\(removed == 1 ? "" : "s") of the upserted rows removed") }
        }
        for index in glues.keys.sorted() {
            notes += try glues[index]?.writer.finish(strict: strict) ?? []
            childCounts.append(ChildTableCount(plan.tables[index].name, counts[index]?.records ?? 0))
        }
        return Ending(written: counts[0] ?? Counts(), childTables: childCounts, notes: notes)
    }

    /// The main table's rows now (after `finish`).
    public func rowCount() throws -> Int { try upserter.rowCount() }

    private func flushGathered() throws {
        guard let batch = gathered else { return }
        gathered = nil
        try writeNow(batch, into: 0)
    }

    private func writeNow(_ batch: RowBatch, into index: Int) throws {
        if let glue = glues[index] {
            try glue.writer.insert(batch)
            counts[index, default: Counts()].records += batch.rowCount
            return
        }
        guard let upserting = index == 0 ? upserter : children[index]?.upserter else { return }
        if index == 0 {
            for child in children.values { try child.refresh?.noteParents(batch) }
            for glue in glues.values { try glue.parents.note(batch) }
        }
        try children[index]?.refresh?.noteChildren(batch)
        let inserted = try upserting.upsert(batch)
        if mode == .append, inserted < batch.rowCount {
            let table = plan.tables[index]
            throw LoadError.keysAlreadyPresent(table: table.name, key: table.primaryKey, count: batch.rowCount - inserted,
                                               firstRecord: batch.firstRowNumber,
                                               lastRecord: batch.firstRowNumber + batch.rowCount - 1)
        }
        counts[index, default: Counts()].records += batch.rowCount
        counts[index, default: Counts()].inserted += inserted
    }
}
