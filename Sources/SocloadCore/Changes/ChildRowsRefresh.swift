/// An upsert's child rows: a parent row the upsert wrote has the elements its record has now,
/// and no others. The child rows are upserted by their own key as they come (a parent's
/// elements may arrive in any batch), the parents' keys and the written child keys are noted
/// in tables of socload's own, and at the end the children of those parents that were not
/// written again are deleted. The other parents' children are not touched.
public final class ChildRowsRefresh {
    private let sql: any SQLExecuting
    private let child: PlanTable
    private let parentsTable: String
    private let writtenTable: String
    private let parents: any TableWriter
    private let written: any TableWriter
    /// The batch positions of the parent's key in the parent's rows, and of the child's key in its own.
    private let parentKeyPositions: [Int]
    private let childKeyPositions: [Int]
    /// The child's columns that hold the parent's key (the first of its key), in order.
    private let parentColumns: [PlanColumn]
    private let childKeyColumns: [PlanColumn]

    /// `parent`: the table whose rows the upsert writes (as its batches arrive); `child`: one of
    /// its child tables (keyed by the parent's key first, as `LoadPlan.addChildTable` makes it).
    public init(sql: any SQLExecuting, parent: PlanTable, child: PlanTable) throws {
        self.sql = sql
        self.child = child
        func column(_ table: PlanTable, _ name: String) -> PlanColumn? { table.columns.first { $0.name == name } }
        childKeyColumns = child.primaryKey.compactMap { column(child, $0) }
        parentColumns = Array(childKeyColumns.prefix(parent.primaryKey.count))
        parentKeyPositions = parent.primaryKey.compactMap { name in parent.columns.firstIndex { $0.name == name } }
        childKeyPositions = child.primaryKey.compactMap { name in child.columns.firstIndex { $0.name == name } }
        guard parentColumns.count == parent.primaryKey.count, parentKeyPositions.count == parent.primaryKey.count,
              childKeyPositions.count == child.primaryKey.count else {
            throw LoadError.unsupported("the child table \(child.name) is not keyed by the key of \(parent.name)")
        }
        parentsTable = sql.dialect.kept("_socload_parents_" + child.name)
        writtenTable = sql.dialect.kept("_socload_children_" + child.name)
        parents = try sql.appendWriter(for: PlanTable(name: parentsTable, columns: parentColumns))
        written = try sql.appendWriter(for: PlanTable(name: writtenTable, columns: childKeyColumns))
    }

    /// Notes the keys of a batch of parent rows.
    public func noteParents(_ batch: RowBatch) throws {
        try parents.insert(ReshapingTableWriter.reshape(batch, sources: parentKeyPositions))
    }

    /// Notes the keys of a batch of child rows (written by the caller).
    public func noteChildren(_ batch: RowBatch) throws {
        try written.insert(ReshapingTableWriter.reshape(batch, sources: childKeyPositions))
    }

    /// Deletes the noted parents' children that were not written again; drops the notes.
    /// Returns how many rows went.
    @discardableResult
    public func finish() throws -> Int {
        _ = try parents.finish(strict: false)
        _ = try written.finish(strict: false)
        let dialect = sql.dialect
        let target = dialect.table(child.name)
        func matches(_ alias: String, _ columns: [PlanColumn]) -> String {
            columns.map { "\(alias).\($0.name.quotedDatabaseIdentifier) = \(target).\($0.name.quotedDatabaseIdentifier)" }
                .joined(separator: " AND ")
        }
        let count = "SELECT count(*) FROM \(target) WHERE "
        let condition = "EXISTS (SELECT 1 FROM \(dialect.table(parentsTable)) AS \"p\" WHERE \(matches("\"p\"", parentColumns))) "
            + "AND NOT EXISTS (SELECT 1 FROM \(dialect.table(writtenTable)) AS \"w\" WHERE \(matches("\"w\"", childKeyColumns)))"
        let stale = (try sql.rows(count + condition, []).first?.first ?? nil).flatMap { Int($0) } ?? 0
        if stale > 0 { try sql.execute("DELETE FROM \(target) WHERE " + condition, []) }
        try sql.dropTable(parentsTable)
        try sql.dropTable(writtenTable)
        return stale
    }
}
