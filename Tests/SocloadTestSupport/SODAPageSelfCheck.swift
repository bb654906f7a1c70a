import SocloadSocrata

/// The fuzz target for a SODA page (`make fuzz FUZZ_TARGET=soda-page`) and its corpus test: any
/// bytes, read as a page of row objects the way a load reads them (`JSONArrayReader`, then the
/// converter in place in the chunk or on a whole copy), must not crash, must read the same in
/// any chunking, and must convert to exactly the reference decoder's values, counts and errors.
public enum SODAPageSelfCheck {
    /// Columns of every kind a page can carry, with `:id` and the system fields.
    static let plan: LoadPlan = {
        let columns = [("text", "text"), ("number", "number"), ("flag", "checkbox"), ("day", "calendar_date"),
                       ("at", "date"), ("place", "location"), ("link", "url"), ("spot", "point"), ("price", "money"),
                       ("share", "percent"), ("phone", "phone"), ("photo", "photo"), ("doc", "document"),
                       ("shape", "multipolygon"), ("any", "json")]
        let view = ViewMetadata(columns: columns.map { ColumnMetadata(fieldName: $0.0, dataTypeName: $0.1) })
        // force-try: a fixed, valid description; a failure here is a bug in the check itself.
        var plan = try! LoadPlan.socrata(view: view.sodaRowColumns, options: PlanOptions(tableName: "t"))
        plan.tables[0].primaryKey = []
        return plan
    }()

    /// nil when everything agrees, else what differed.
    public static func check(_ bytes: [UInt8]) -> String? {
        let whole = read(bytes, cuts: [])
        for chunk in [7, max(1, bytes.count / 2 + 1), 1] where chunk < bytes.count {
            if chunk == 1, bytes.count > 4096 { continue }
            let other = read(bytes, cuts: Array(stride(from: chunk, to: bytes.count, by: chunk)), withReference: false)
            if other != whole { return "reading in \(chunk)-byte chunks gives\n\(other)\nbut whole\n\(whole)" }
        }
        return whole.hasPrefix("MISMATCH") ? whole : nil
    }

    /// Stops the process on a disagreement: what a fuzzer looks for.
    public static func run(_ bytes: [UInt8]) {
        if let failure = check(bytes) { preconditionFailure(failure) }
    }

    private static func read(_ bytes: [UInt8], cuts: [Int], withReference: Bool = true) -> String {
        let reader = JSONArrayReader()
        var converter = RowConverter(plan: plan, rows: .objects)
        var comparison = ReferenceComparison(withReference: withReference)
        comparison.reference = ReferenceDecoder(plan: plan, objects: true)
        do {
            var offset = 0
            var ends = (cuts.filter { $0 > 0 && $0 < bytes.count } + [bytes.count]).makeIterator()
            while offset < bytes.count {
                let end = ends.next() ?? bytes.count
                try bytes[offset..<end].withUnsafeBytes { part in
                    try reader.feed(part) { element in
                        var batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: element.number,
                                             expectedRows: 1)
                        if element.isWhole {
                            let result = Result { () throws -> [CellValue] in
                                try converter.append(row: element.bytes, rowNumber: element.number, offset: element.offset,
                                                     to: &batch)
                                return batch.row(0)
                            }
                            comparison.compare(withReference ? Array(element.bytes) : [], number: element.number,
                                               offset: element.offset, converted: result)
                            if case .failure(let error) = result { throw error }
                            return nil
                        }
                        let found: Int?
                        do {
                            found = try converter.appendIfComplete(element.bytes, from: element.start, limit: element.bytes.count,
                                                                   rowNumber: element.number, offset: element.offset, to: &batch)
                        } catch {
                            comparison.note("error: \(error)")
                            throw error
                        }
                        guard let found else { return nil }
                        comparison.compare(withReference ? Array(element.bytes[element.start..<found]) : [],
                                           number: element.number, offset: element.offset, converted: .success(batch.row(0)))
                        return found
                    }
                }
                offset = end
            }
            try reader.finish()
        } catch {
            comparison.note("error: \(error)")
        }
        return comparison.result(converter: converter)
    }
}
