/// The values a load could not read as a geometry (left NULL in the geometry column, the
/// source column keeping them as given), counted per geometry column for one warning each.
public struct UnreadableGeometries: Sendable {
    private var found: [String: (count: Int, firstRow: Int)] = [:]
    private var order: [String] = []

    public init() {}

    public mutating func count(column: String, row: Int) {
        if let seen = found[column] {
            found[column] = (seen.count + 1, seen.firstRow)
        } else {
            found[column] = (1, row)
            order.append(column)
        }
    }

    /// One line per geometry column that had such values: `t.f_geom: 2 values could not be
    /// read as a geometry (left NULL); first at row 7`.
    public func notes(table: String) -> [String] {
        order.compactMap { column in
            found[column].map { "\(table).\(column): \($0.count) value\($0.count == 1 ? "" : "s") could not be read as a geometry "
                + "(left NULL); first at row \($0.firstRow)" }
        }
    }
}
