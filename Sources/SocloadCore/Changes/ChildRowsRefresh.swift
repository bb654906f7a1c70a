/// An upsert's child rows: a parent row the upsert wrote has the elements its record has now,
/// and no others. The child rows are upserted by their own key as they come (a parent's
/// elements may arrive in any batch), the parents' keys and the written child keys are noted
/// in tables of socload's own, and at the end the children of those parents that were not
/// written again are deleted. The other parents' children are not touched.
public final class ChildRowsRefresh {
    private let sql: any SQLExecuting
    private let child: PlanTable
    private let parents: NotedKeys
    private let written: NotedKeys

    /// `parent`: the table whose rows the upsert writes (as its batches arrive); `child`: one of
    /// its child tables (keyed by the parent's key first, as `LoadPlan.addChildTable` makes it).
    public init(sql: any SQLExecuting, parent: PlanTable, child: PlanTable) throws {
        self.sql = sql
        self.child = child
        func column(_ table: PlanTable, _ name: String) -> PlanColumn? { table.columns.first { $0.name == name } }
        let childKeyColumns = child.primaryKey.compactMap { column(child, $0) }
        // The child's columns that hold the parent's key (the first of its key), in order.
        let parentColumns = Array(childKeyColumns.prefix(parent.primaryKey.count))
        let parentKeyPositions = parent.primaryKey.compactMap { name in parent.columns.firstIndex { $0.name == name } }
        let childKeyPositions = child.primaryKey.compactMap { name in child.columns.firstIndex { $0.name == name } }
        guard parentColumns.count == parent.primaryKey.count, parentKeyPositions.count == parent.primaryKey.count,
              childKeyPositions.count == child.primaryKey.count else {
            throw LoadError.unsupported("the child table \(child.name) is not keyed by the key of \(parent.name)")
        }
        parents = try NotedKeys(sql: sql, name: "_socload_parents_" + child.name, columns: parentColumns,
                                positions: parentKeyPositions)
        written = try NotedKeys(sql: sql, name: "_socload_children_" + child.name, columns: childKeyColumns,
                                positions: childKeyPositions)
    }

    /// Notes the keys of a batch of parent rows.
    public func noteParents(_ batch: RowBatch) throws {
        try parents.note(batch)
    }

    /// Notes the keys of a batch of child rows (written by the caller).
    public func noteChildren(_ batch: RowBatch) throws {
        try written.note(batch)
    }

    /// Deletes the noted parents' children that were not written again; drops the notes.
    /// Returns how many rows went.
    @discardableResult
    public func finish() throws -> Int {
        try parents.finish()
        try written.finish()
        let target = sql.dialect.table(child.name)
        func matches(_ alias: String, _ columns: [PlanColumn]) -> String {
            columns.map { "\(alias).\($0.name.quotedDatabaseIdentifier) = \(target).\($0.name.quotedDatabaseIdentifier)" }
                .joined(separator: " AND ")
        }
        let condition = "EXISTS (SELECT 1 FROM \(parents.relation) AS \"p\" WHERE \(matches("\"p\"", parents.columns))) "
            + "AND NOT EXISTS (SELECT 1 FROM \(written.relation) AS \"w\" WHERE \(matches("\"w\"", written.columns)))"
        let stale = (try sql.rows("SELECT count(*) FROM \(target) WHERE " + condition, []).first?.first ?? nil)
            .flatMap { Int($0) } ?? 0
        if stale > 0 { try sql.execute("DELETE FROM \(target) WHERE " + condition, []) }
        try parents.drop()
        try written.drop()
        return stale
    }
}
