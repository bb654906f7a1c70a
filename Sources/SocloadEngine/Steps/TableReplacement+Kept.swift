import SocloadCore

/// What a refresh keeps of what earlier loads built on the table, while its columns exist; what
/// it cannot keep is said in a note, never silently dropped.
extension TableReplacement {
    /// A refresh extracts what earlier loads and `socload extract` did: the values never come back.
    static func keepExtractions(of previous: LoadPlan, in plan: inout LoadPlan, notes: inout [String]) throws {
        for extraction in previous.options?.extractions ?? [] where !(plan.options?.extractions ?? []).contains(where: {
            $0.columns.map { $0.lowercased() } == extraction.columns.map { $0.lowercased() }
        }) {
            do {
                try plan.tables[0].extract(extraction)
                plan.options?.extractions.append(extraction)
            } catch let error as PlanError {
                notes.append("the lookup \(extraction.spec) of \(plan.mainTable.name) is not applied any more: \(error.description)")
            }
        }
    }

    /// The `--index` indexes, the full-text index, the `--pk` key and the distribution column of
    /// earlier loads.
    static func keepWhatWasBuilt(on previous: LoadPlan, in plan: inout LoadPlan, notes: inout [String]) throws {
        for index in previous.mainTable.indexes {
            let table = plan.mainTable
            guard !table.indexes.contains(where: { $0.name.lowercased() == index.name.lowercased() }) else { continue }
            if let kept = try? LoadPlan.index(on: index.columns, in: table) {
                plan.tables[0].indexes.append(PlanIndex(name: index.name, columns: kept.columns, isUnique: index.isUnique))
            } else {
                notes.append("the index \(index.name) over \(index.columns.joined(separator: ", ")) was not rebuilt: "
                             + "\(table.name) no longer has all of those columns")
            }
        }
        if plan.mainTable.fullText == nil, let columns = previous.mainTable.fullText?.columns {
            do {
                try plan.tables[0].indexFullText(columns)
                let indexed = plan.mainTable.fullText?.columns
                plan.options?.fullTextColumns = indexed
            } catch let error as PlanError {
                notes.append("the full-text index of \(plan.mainTable.name) was not rebuilt: \(error.description)")
            }
        }
        if plan.options?.primaryKey == nil, previous.options?.primaryKey != nil,
           previous.mainTable.primaryKey != plan.mainTable.primaryKey {
            do {
                try plan.tables[0].setKey(previous.mainTable.primaryKey)
                plan.options?.primaryKey = previous.mainTable.primaryKey
            } catch let error as PlanError {
                let key = plan.mainTable.primaryKey
                let now = key.isEmpty ? "has no key now" : "is keyed by \(key.joined(separator: ", ")) again"
                notes.append("\(plan.mainTable.name) \(now): \(error.description)")
            }
        }
        // A distributed table stays distributed by the same column on a refresh.
        if plan.mainTable.distributionColumn == nil, let column = previous.mainTable.distributionColumn {
            do {
                try plan.tables[0].distribute(by: column)
                try plan.distributeNestedTables()
            } catch let error as PlanError {
                notes.append("\(plan.mainTable.name) is no longer distributed by \(column): \(error.description)")
            }
        }
    }
}
