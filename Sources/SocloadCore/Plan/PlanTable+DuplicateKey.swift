extension PlanTable {
    /// The error for a key that two rows share, said the same way by every destination: the key
    /// (`code`, or `(a, b)` for a compound one), its value (a number as written, `true` or
    /// `false`, text quoted and cut at 40 characters, NULL), and the numbers of the rows that hold it.
    ///
    /// `values` are the key's values in key order, as text (nil: NULL).
    public func duplicateKeyError(values: [String?], rows: [Int]) -> LoadError {
        let types = Dictionary(storedColumns.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        let shown = zip(primaryKey, values).map { column, value -> String in
            guard let value else { return "NULL" }
            switch types[column] {
            case .integer?, .double?, .decimal?: return value
            case .boolean?: return ["1", "t", "true"].contains(value) ? "true" : ["0", "f", "false"].contains(value) ? "false" : value
            default: return JSONValue.quoted(value.count > 40 ? String(value.prefix(40)) + "…" : value)
            }
        }
        let key = primaryKey.count == 1 ? primaryKey[0] : "(" + primaryKey.joined(separator: ", ") + ")"
        let value = shown.count == 1 ? shown[0] : "(" + shown.joined(separator: ", ") + ")"
        return LoadError.duplicateKey(table: name, key: key, value: value, rows: rows)
    }
}
