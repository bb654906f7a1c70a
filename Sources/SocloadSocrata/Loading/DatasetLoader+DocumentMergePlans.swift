import SocloadCore

/// What `load --mode append|upsert` decides before it writes: which stored table each of the
/// document's tables goes into and whether its records fit, which columns an upsert with a
/// description writes, and the shape (glue tables, child keys) the table was loaded with.
extension DatasetLoader {
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
            let merge = TableMerge(stored: storedTable, arriving: table, alwaysNull: index == 0 ? described.alwaysNull : [])
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
        try readRecords(path, records, state: LoadState()) { record in
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
                if !shaped.glues.contains(where: { $0.arrayField == nesting.arrayField }) {
                    shaped.glues.append(GlueSpec(arrayField: nesting.arrayField, otherTable: glue.otherTable, otherKey: glue.otherKey,
                                                 idField: glue.idField))
                }
            } else if !nesting.numbersElements, shaped.childKeys[nesting.arrayField] == nil, let last = table.primaryKey.last,
                      case .field(let cell)? = table.column(named: last)?.source, cell < nesting.sourceFields.count {
                shaped.childKeys[nesting.arrayField] = nesting.sourceFields[cell]
            }
        }
        return shaped
    }
}
