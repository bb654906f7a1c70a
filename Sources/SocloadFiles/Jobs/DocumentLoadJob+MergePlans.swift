import SocloadCore
import SocloadEngine
import SocloadTransport

/// What `load --mode append|upsert` decides before it writes: which stored table each of the
/// document's tables goes into and whether its records fit, which columns an upsert with a
/// description writes, and the shape (glue tables, child keys) the table was loaded with.
extension DocumentLoadJob {
    /// The plan the records arrive in, keyed and shaped as the stored table (so child rows name
    /// their parents), with only the columns the records have for an upsert with a description.
    func arrivingPlan(documentPlan: LoadPlan, stored: LoadPlan, table: String,
                      described: DescribedDocument, path: String, notes: inout [String]) throws -> LoadPlan {
        let storedKey = stored.mainTable.primaryKey
        if let key = request.primaryKey, key.map({ $0.lowercased() }) != storedKey.map({ $0.lowercased() }) {
            throw LoadError.recordsDoNotFit(table: table, differences: [
                "key: \(table) is keyed by \(storedKey.isEmpty ? "nothing" : storedKey.joined(separator: ", ")), "
                + "--pk asks for \(key.joined(separator: ", "))"])
        }
        var arriving = documentPlan
        let shaped = Self.shapedAsStored(request, stored: stored)
        if arriving.mainTable.primaryKey.isEmpty && !storedKey.isEmpty || shaped.document.glues != request.document.glues
            || shaped.document.childKeys != request.document.childKeys {
            var keyed = shaped
            if arriving.mainTable.primaryKey.isEmpty, !storedKey.isEmpty { keyed.primaryKey = storedKey }
            var keyedNotes: [String] = []
            do {
                arriving = try self.documentPlan(keyed, described: described, notes: &keyedNotes)
                notes = keyedNotes
            } catch is PlanError {
                throw LoadError.recordsDoNotFit(table: table, differences: [
                    "the records do not have \(storedKey.joined(separator: ", ")), the key of \(table)"])
            }
            if let limit = context.destination.maximumNameBytes { arriving = arriving.withNamesShortened(toBytes: limit) }
        }
        if request.mode == .upsert, described.portalDescription != nil {
            // A description lists every column: the upsert writes only those the records have.
            arriving.tables[0].columns = try columnsPresent(in: arriving, path: path, records: described.records)
        }
        if request.mode == .upsert, storedKey.isEmpty {
            throw LoadError.unsupported("\(table) has no key to upsert by: --mode append adds rows, or load it again with --pk")
        }
        return arriving
    }

    /// The plans of a merge: the one the rows are written by, the one the catalog keeps (the
    /// stored plan with the columns added), the columns added, and the stored columns the
    /// records lack.
    struct MergedPlans {
        var written: LoadPlan
        var kept: LoadPlan
        var changes: [SchemaChange] = []
        var missing: [String]
    }

    /// Adds the new columns `evolve` allows to the stored tables (`mergePlans` refuses the rest).
    func applyMerges(stored: LoadPlan, arriving: LoadPlan, described: DescribedDocument, policy: SchemaChangePolicy,
                     sql: any SQLExecuting) throws -> MergedPlans {
        let merges = try mergePlans(stored: stored, arriving: arriving, described: described, policy: policy)
        var plans = MergedPlans(written: arriving, kept: stored, missing: merges.first { $0.index == 0 }?.merge.missing ?? [])
        for (index, var merge) in merges {
            let storedIndex = stored.tables.firstIndex { $0.name.lowercased() == arriving.tables[index].name.lowercased() } ?? 0
            for column in merge.added {
                try sql.execute(sql.dialect.addColumnStatement(table: merge.table.name, column: column.name, type: column.type), [])
                plans.kept.tables[storedIndex].columns.append(PlanColumn(name: column.name, type: column.type, source: .absent))
                plans.changes.append(SchemaChange(table: merge.table.name, kind: .columnAdded, name: column.name,
                                                  after: column.type.rawValue))
            }
            merge.addColumns()
            var table = merge.table
            table.nesting = arriving.tables[index].nesting
            plans.written.tables[index] = table
        }
        return plans
    }

    /// The stored table each of the document's tables goes into, by the document plan's place:
    /// refused with every column the stored types cannot hold (even under evolve: a column is
    /// not retyped in place), and with every new column or child table unless `policy` is
    /// `evolve` (which adds new columns; a new child table needs a replace).
    func mergePlans(stored: LoadPlan, arriving: LoadPlan, described: DescribedDocument,
                            policy: SchemaChangePolicy) throws -> [(index: Int, merge: TableMerge)] {
        var merges: [(index: Int, merge: TableMerge)] = []
        var refusals: [String] = []
        var additions: [String] = []
        for (index, table) in arriving.tables.enumerated() where index == 0 || table.nesting != nil {
            if table.glue != nil {
                // Its writer adds the attributes it lacks, as on a replace.
                if !stored.tables.contains(where: { $0.glue != nil && $0.name.lowercased() == table.name.lowercased() }) {
                    refusals.append("glue table \(table.name): \(stored.mainTable.name) was not loaded with it "
                                    + "(a new glue table needs --mode replace)")
                }
                continue
            }
            guard let storedTable = stored.tables.first(where: { $0.name.lowercased() == table.name.lowercased() }),
                  index == 0 || storedTable.nesting != nil else {
                refusals.append("child table \(table.name): the records have arrays of objects under "
                                + "\(table.nesting?.arrayField ?? table.name), which \(stored.mainTable.name) keeps as a column "
                                + "(a new child table needs --mode replace)")
                continue
            }
            // A child table's rows are whole elements: what an element lacks is NULL, not kept.
            let merge = TableMerge(stored: storedTable, arriving: table, alwaysNull: index == 0 ? described.alwaysNull : [],
                                   wholeRows: index > 0)
            refusals += merge.mismatches.map { index == 0 ? $0 : "\(table.name): \($0)" }
            additions += merge.added.map { "column \($0.name) (\($0.type.rawValue)): \(table.name) does not have it" }
            merges.append((index, merge))
        }
        if !refusals.isEmpty {
            throw LoadError.recordsDoNotFit(table: stored.mainTable.name, differences: refusals
                                          + ["a load cannot retype a column in place: --mode replace loads the table anew"])
        }
        if !additions.isEmpty, policy != .evolve {
            throw LoadError.recordsDoNotFit(table: stored.mainTable.name, differences: additions
                                          + ["--on-schema-change evolve adds the new columns"])
        }
        return merges
    }

    /// The main table's columns whose field at least one record has (read once more: an
    /// upsert's file is local, and usually small).
    func columnsPresent(in plan: LoadPlan, path: String, records: DocumentRecordSource) throws -> [PlanColumn] {
        var inference = FieldTypeInference()
        inference.readsTextAsValues = records.isCSV
        try readRecords(path, records, state: LoadState<Void>()) { record in
            try inference.observe(text: record.bytes, record: record.number, line: record.line)
        }
        let present = Set(inference.fields)
        return plan.mainTable.columns.filter { column in
            switch column.source {
            case .field(let cell), .part(let cell, _, _):
                return cell < plan.sourceFields.count && present.contains(plan.sourceFields[cell])
            case .rowIdentifier: return true
            case .absent: return false
            }
        }
    }

    /// The request with the glue tables (`--glue`) and child keys (`--child-key`) the table was
    /// loaded with, where it names none: an append or upsert keeps the table's shape.
    static func shapedAsStored(_ request: DocumentLoadRequest, stored: LoadPlan) -> DocumentLoadRequest {
        var shaped = request
        for table in stored.tables.dropFirst() {
            guard let nesting = table.nesting else { continue }
            if let glue = table.glue {
                if !shaped.document.glues.contains(where: { $0.arrayField == nesting.arrayField }) {
                    shaped.document.glues.append(GlueSpec(arrayField: nesting.arrayField, otherTable: glue.otherTable, otherKey: glue.otherKey,
                                                 idField: glue.idField))
                }
            } else if !nesting.numbersElements, shaped.document.childKeys[nesting.arrayField] == nil, let last = table.primaryKey.last,
                      case .field(let cell)? = table.column(named: last)?.source, cell < nesting.sourceFields.count {
                shaped.document.childKeys[nesting.arrayField] = nesting.sourceFields[cell]
            }
        }
        return shaped
    }
}
