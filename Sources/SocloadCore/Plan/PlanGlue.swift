/// A many-to-many glue table between two tables, filled from nested arrays of references on
/// either side (`socload load --glue K:OTHER.KEY[:ID_FIELD]`): named after both tables in
/// alphabetical order (`committees_legislators`), keyed by the pair of ids
/// (`<table>_<key>` columns, in the same order), every other field of the nested elements kept
/// as a column of the link. Each side records which links it asserts (`_from_<table>`), so a
/// refresh of one side removes the links it no longer asserts unless the other side does.
public struct PlanGlue: Sendable, Codable, Equatable {
    /// The table whose records carry the nested array (this load's table).
    public var table: String
    /// The glue column holding that table's key.
    public var tableColumn: String
    /// The table the elements reference, and its key column.
    public var otherTable: String
    public var otherKey: String
    /// The glue column holding the referenced key.
    public var otherColumn: String
    /// The columns that say which side asserts a link: this side's, then the other's.
    public var assertedColumn: String
    public var otherAssertedColumn: String
    /// The element's field holding the reference.
    public var idField: String

    public init(table: String, tableColumn: String, otherTable: String, otherKey: String, otherColumn: String,
                assertedColumn: String, otherAssertedColumn: String, idField: String) {
        self.table = table
        self.tableColumn = tableColumn
        self.otherTable = otherTable
        self.otherKey = otherKey
        self.otherColumn = otherColumn
        self.assertedColumn = assertedColumn
        self.otherAssertedColumn = otherAssertedColumn
        self.idField = idField
    }
}

/// `K:OTHER_TABLE.OTHER_KEY[:ID_FIELD]`: which nested array becomes a glue table, and to what.
public struct GlueSpec: Sendable, Equatable {
    public var arrayField: String
    public var otherTable: String
    public var otherKey: String
    /// The elements' field holding the reference; by default `otherKey`.
    public var idField: String

    public init(arrayField: String, otherTable: String, otherKey: String, idField: String? = nil) {
        self.arrayField = arrayField
        self.otherTable = otherTable
        self.otherKey = otherKey
        self.idField = idField ?? otherKey
    }

    /// Reads `K:OTHER_TABLE.OTHER_KEY[:ID_FIELD]` (names holding `:` or `.` in double quotes).
    public init(spec: String) throws {
        var scanner = QuotedNameScanner(spec, separators: [":", "."])
        guard let field = scanner.name(), scanner.separator() == ":", let other = scanner.name(), scanner.separator() == ".",
              let key = scanner.name() else {
            throw PlanError("--glue \(spec): expected FIELD:OTHER_TABLE.OTHER_KEY[:ID_FIELD]")
        }
        var idField: String?
        if !scanner.isAtEnd {
            guard scanner.separator() == ":", let id = scanner.name(), scanner.isAtEnd else {
                throw PlanError("--glue \(spec): expected FIELD:OTHER_TABLE.OTHER_KEY[:ID_FIELD]")
            }
            idField = id
        }
        self.init(arrayField: field, otherTable: other, otherKey: key, idField: idField)
    }

    /// The glue written as a SPEC (what `init(spec:)` reads).
    public var spec: String {
        func written(_ name: String) -> String { QuotedNameScanner.written(name) }
        return written(arrayField) + ":" + written(otherTable) + "." + written(otherKey)
            + (idField == otherKey ? "" : ":" + written(idField))
    }
}
