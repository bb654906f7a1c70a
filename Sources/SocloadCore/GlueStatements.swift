/// The statements both destinations run to upsert one side's links into a many-to-many glue
/// table, in the SQL that SQLite and PostgreSQL share. Names come in quoted (and qualified) by
/// the destination; values never appear in the SQL.
///
/// One side's load: its links are staged, then its earlier assertions are withdrawn
/// (`withdraw`), the staged links upserted as asserted by it (`upsert`, updating only the
/// attributes this side carries), and the links no side asserts any more removed
/// (`removeUnasserted`) — all in the load's transaction.
public struct GlueStatements: Sendable {
    public var glueTable: String
    /// The pair of ids, in the glue table's key order.
    public var idColumns: [String]
    /// The attributes this side's elements carry.
    public var attributes: [String]
    /// This side's and the other side's "asserted" columns.
    public var asserted: String
    public var otherAsserted: String

    public init(glueTable: String, idColumns: [String], attributes: [String], asserted: String, otherAsserted: String) {
        self.glueTable = glueTable
        self.idColumns = idColumns
        self.attributes = attributes
        self.asserted = asserted
        self.otherAsserted = otherAsserted
    }

    /// How many staged links repeat a pair staged before them (merged into one link).
    public func merges(staging: String) -> String {
        "SELECT (SELECT count(*) FROM \(staging)) - (SELECT count(*) FROM (SELECT DISTINCT \(idColumns.joined(separator: ", ")) "
            + "FROM \(staging)) AS \"d\")"
    }

    /// Withdraws what this side asserted before.
    public var withdraw: String {
        "UPDATE \(glueTable) SET \(asserted) = 0 WHERE \(asserted) <> 0"
    }

    /// Withdraws what this side asserted before for the rows whose key (in `column`, this
    /// side's id column, quoted) is in `keys` (a relation of one column `keyColumn`): an
    /// append or upsert of some of the side's rows leaves the others' links alone.
    public func withdraw(column: String, keys: String, keyColumn: String) -> String {
        withdraw + " AND \(column) IN (SELECT \"k\".\(keyColumn) FROM \(keys) AS \"k\")"
    }

    /// Upserts the rows `select` gives (the ids, this side's attributes, then 1), by the pair:
    /// a link both sides know keeps the attributes only the other side carries.
    public func upsert(select: String) -> String {
        let updates = (attributes + [asserted]).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(glueTable) (\((idColumns + attributes + [asserted]).joined(separator: ", "))) \(select) "
            + "ON CONFLICT (\(idColumns.joined(separator: ", "))) DO UPDATE SET \(updates)"
    }

    /// Removes the links neither side asserts any more.
    public var removeUnasserted: String {
        "DELETE FROM \(glueTable) WHERE \(asserted) = 0 AND \(otherAsserted) = 0"
    }

    /// How many links this side asserts whose reference has no row in the other table (nil: the
    /// other table does not exist, so every one of them). Keys compare as text, whatever type
    /// each side gave them.
    public func dangling(otherColumn: String, otherTable: String?, otherKey: String) -> String {
        guard let otherTable else { return "SELECT count(*) FROM \(glueTable) WHERE \(asserted) = 1" }
        return "SELECT count(*) FROM \(glueTable) AS \"g\" WHERE \"g\".\(asserted) = 1 AND NOT EXISTS "
            + "(SELECT 1 FROM \(otherTable) AS \"o\" WHERE CAST(\"o\".\(otherKey) AS TEXT) = CAST(\"g\".\(otherColumn) AS TEXT))"
    }
}
