import SocloadSocrata

/// The consistency check behind the fuzz target and the corpus test: on any input, reading must
/// not crash; reading in different chunkings must give the same result; and `RowConverter`,
/// fed the way a load feeds it (rows in place in the chunk, or copied whole), must give exactly
/// the `ReferenceDecoder`'s values, invalid-cell counts and errors.
public enum ConverterSelfCheck {
    /// nil when everything agrees, else what differed.
    public static func check(_ bytes: [UInt8]) -> String? {
        ChunkedReading.check(bytes) { bytes, cuts, withReference in convert(bytes, cuts: cuts, withReference: withReference) }
    }

    /// nil when reading the input cut at each of `points` gives what reading it whole gives (and
    /// the converter agrees with the reference), else what differed. Each reading cuts at up to
    /// `perReading` of the points (each one a chunk boundary), so many points cost few readings.
    public static func check(_ bytes: [UInt8], cutAt points: [Int], perReading: Int = 25) -> String? {
        let whole = convert(bytes, cuts: [])
        if whole.hasPrefix("MISMATCH") { return whole }
        let sorted = Array(Set(points.filter { $0 > 0 && $0 < bytes.count })).sorted()
        for start in stride(from: 0, to: sorted.count, by: perReading) {
            let cuts = Array(sorted[start..<min(sorted.count, start + perReading)])
            let other = convert(bytes, cuts: cuts, withReference: false)
            if other != whole { return "cut at bytes \(cuts):\n\(other)\nbut whole\n\(whole)" }
        }
        return nil
    }

    /// Stops the process on a disagreement: what a fuzzer looks for.
    public static func run(_ bytes: [UInt8]) {
        if let failure = check(bytes) { preconditionFailure(failure) }
    }

    /// Every row converted both ways, as text; "MISMATCH ..." first when they differ. The input
    /// is fed in pieces ending at `cuts`.
    /// Without the reference, only the converter's values are written (in the same form), to be
    /// compared with a reading that had it.
    private static func convert(_ bytes: [UInt8], cuts: [Int], withReference: Bool = true) -> String {
        let reader = RowsJSONReader()
        var converter: RowConverter?
        var comparison = ReferenceComparison(withReference: withReference)
        do {
            try ChunkedReading.feed(bytes, cuts: cuts) { part in
                try reader.feed(part, onMetadata: { view in
                    guard let plan = try? LoadPlan.socrata(view: view, options: PlanOptions(tableName: "t")) else { return }
                    converter = RowConverter(plan: plan, rows: .arrays)
                    comparison.reference = ReferenceDecoder(plan: plan)
                    comparison.note("meta \(plan.mainTable.columns.map { "\($0.name):\($0.type.rawValue)" })")
                }, onRow: { row in
                    guard converter != nil else { return nil }
                    return try comparison.convert(row, with: &converter!)
                })
            }
            try reader.finish()
        } catch {
            comparison.note("error: \(error)")
        }
        return comparison.result(converter: converter)
    }
}
