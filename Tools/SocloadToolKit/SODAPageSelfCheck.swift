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
        ChunkedReading.check(bytes) { bytes, cuts, withReference in read(bytes, cuts: cuts, withReference: withReference) }
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
            try ChunkedReading.feed(bytes, cuts: cuts) { part in
                try reader.feed(part) { element in try comparison.convert(element, with: &converter) }
            }
            try reader.finish()
        } catch {
            comparison.note("error: \(error)")
        }
        return comparison.result(converter: converter)
    }
}
