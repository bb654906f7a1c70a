/// What the portal says about each column of a loaded table — its field, display name, type,
/// description and format — from the catalog entry's plan and column metadata: what `info
/// --dictionary` lists and an export carries with the data.
///
///     let dictionary = ColumnDictionary(entry: entry)
///     dictionary?.columns.first?.description   // the portal's description of the first column
public struct ColumnDictionary: Sendable {
    /// One column of the table.
    public struct Column: Sendable {
        public var name: String
        public var type: LogicalType
        /// The portal's field it comes from (`:id` for the row identifier); nil when none.
        public var field: String?
        /// The portal's description of that field; nil when it gave none.
        public var portal: ColumnMetadata?

        public var displayName: String? { portal?.name }
        public var description: String? { portal?.description }
    }

    public let columns: [Column]

    /// The columns of the entry's main table; nil for a table loaded by an older socload (no plan).
    public init?(entry: CatalogEntry) {
        guard let plan = entry.plan else { return nil }
        let described = Self.portalColumns(of: entry)
        columns = plan.mainTable.columns.map { column in
            let field = Self.field(of: column, in: plan)
            return Column(name: column.name, type: column.type, field: field, portal: field.flatMap { described[$0] })
        }
    }

    /// The column named `name` (as the database compares names: case aside).
    public func column(named name: String) -> Column? {
        columns.first { $0.name == name } ?? columns.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The portal's description of each data column, by field name.
    public static func portalColumns(of entry: CatalogEntry) -> [String: ColumnMetadata] {
        Dictionary(entry.columns.filter { !$0.isSystemColumn }.compactMap { column in column.fieldName.map { ($0, column) } },
                   uniquingKeysWith: { first, _ in first })
    }

    /// The portal's field a plan column comes from.
    public static func field(of column: PlanColumn, in plan: LoadPlan) -> String? {
        switch column.source {
        case .field(let cell), .part(let cell, _, _): return plan.sourceFields.indices.contains(cell) ? plan.sourceFields[cell] : nil
        case .rowIdentifier: return ":id"
        case .absent: return nil
        }
    }
}
