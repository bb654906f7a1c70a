import SocloadCore

/// `info TABLE`'s columns: each one's type, source field and description.
extension InfoCommand {
    /// One row per plan column: type, source field, set cells, the portal's statistics and the
    /// statements about it that disagree.
    func writeColumns(of entry: CatalogEntry,
                      measure: (CatalogEntry, PlanTable) throws -> ([String: DatabaseValue], PortalVerification?),
                      to writer: any ResultWriter) throws {
        guard let plan = entry.plan else {
            throw CommandFailure("\(entry.tableName) was loaded by an older socload: no plan to describe its columns",
                                 exitCode: .noInput)
        }
        let (counts, verification) = try measure(entry, plan.mainTable)
        let statistics = Dictionary(entry.columns.compactMap { column in
            column.fieldName.flatMap { field in column.cachedContents.map { (field, $0) } }
        }, uniquingKeysWith: { first, _ in first })
        writer.begin(columns: ["column", "type", "field", "non_null", "portal_non_null", "portal_null", "portal_smallest",
                               "portal_largest", "differs", "display_name", "description"])
        let described = ColumnDictionary.portalColumns(of: entry)
        for column in plan.mainTable.columns {
            let field = ColumnDictionary.field(of: column, in: plan)
            let stated = field.flatMap { statistics[$0] }
            let disagreeing = verification?.differences.filter { $0.check.columns.contains(column.name) }
                .map(\.check.statement.rawValue) ?? []
            let differs: DatabaseValue = stated == nil ? .null
                : entry.partialReason != nil ? .text("not comparable") : .text(disagreeing.joined(separator: ","))
            writer.write([.text(column.name), .text(column.type.rawValue), field.map { .text($0) } ?? .null,
                          counts[column.name] ?? .null, stated?.nonNull.map { .integer(Int64($0)) } ?? .null,
                          stated?.null.map { .integer(Int64($0)) } ?? .null, stated?.smallest.map { .text($0) } ?? .null,
                          stated?.largest.map { .text($0) } ?? .null, differs,
                          field.flatMap { described[$0]?.name }.map { .text($0) } ?? .null,
                          field.flatMap { described[$0]?.description }.map { .text($0) } ?? .null])
        }
        writer.finish()
    }
}
