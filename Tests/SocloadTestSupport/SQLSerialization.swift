import SocloadCore
import XCTest

/// The SQL each dialect writes for lookups, glue, key sets, history, row changes and selects, on
/// one small plan, named statement by statement: the serialization tests of SQLite's and
/// PostgreSQL's dialects (as SQLKit's `XCTAssertSerialization(of:is:)`) hold each text exactly,
/// beside the behaviour tests that run them.
public enum SQLSerialization {
    /// `t`: `_id` key, `agency` extracted into a counted, pruned lookup, `city`, `amount`, `when`.
    public static func table() throws -> PlanTable {
        var table = PlanTable(name: "t", columns: [
            PlanColumn(name: "_id", type: .text, source: .field(cell: 0)),
            PlanColumn(name: "agency", type: .text, source: .field(cell: 1)),
            PlanColumn(name: "city", type: .text, source: .field(cell: 2)),
            PlanColumn(name: "amount", type: .decimal, source: .field(cell: 3)),
            PlanColumn(name: "when", type: .floatingTimestamp, source: .field(cell: 4)),
        ], primaryKey: ["_id"])
        try table.extract(Extraction(columns: ["agency"], count: true, prune: true))
        return table
    }

    /// Every statement, by name, as `dialect` writes it.
    public static func statements(_ dialect: any SQLDialect) throws -> [(name: String, sql: String)] {
        let table = try table()
        var written: [(String, String)] = []
        let lookups = LookupWriting(table: table, dialect: dialect)
        let lookup = try XCTUnwrap(table.lookups.first)
        let statements = lookups.statements(lookup)
        written.append(("lookup insert", statements.insertMissingValues(from: "staged")))
        written.append(("lookup match", statements.match(lookup: "l", source: "s")))
        written.append(("lookup prune", statements.prune(table: dialect.table("t"), foreignKey: "agency_id".quotedDatabaseIdentifier)))
        written += lookups.indexStatements().enumerated().map { ("lookup index \($0.offset)", $0.element) }
        written += lookups.recountStatements().enumerated().map { ("lookup recount \($0.offset)", $0.element) }
        written += lookups.driftQueries().map { ("lookup drift \($0.countColumn)", $0.sql) }

        let glueTable = PlanTable(name: "t_tags", columns: [
            PlanColumn(name: "t_id", type: .text, source: .field(cell: 0)),
            PlanColumn(name: "tag_id", type: .integer, source: .field(cell: 1)),
            PlanColumn(name: "weight", type: .decimal, source: .field(cell: 2)),
        ], primaryKey: ["t_id", "tag_id"])
        let glue = GlueWriting(table: glueTable, glue: PlanGlue(table: "t", tableColumn: "t_id", otherTable: "tags", otherKey: "id",
                                                                otherColumn: "tag_id", assertedColumn: "_t_asserts",
                                                                otherAssertedColumn: "_tags_asserts", idField: "id"),
                               dialect: dialect)
        written += glue.tableStatements(existing: []).enumerated().map { ("glue create \($0.offset)", $0.element) }
        written.append(("glue withdraw", glue.statements.withdraw))
        written.append(("glue upsert", glue.statements.upsert(select: "SELECT * FROM staged")))
        written.append(("glue remove unasserted", glue.statements.removeUnasserted))

        let keys = KeySetWriting(dialect: dialect, table: table, keysTable: "_socload_keys")
        written += [("keys create", keys.createStatement), ("keys index", keys.indexStatement), ("keys missing", keys.missing),
                    ("keys count", keys.countStatement), ("keys delete", keys.deleteStatement), ("keys drop", keys.dropStatement)]

        let history = HistorySQL(dialect: dialect, table: table)
        written += history.createStatements.enumerated().map { ("history create \($0.offset)", $0.element) }
        written += [("history insert all", history.insertAllStatement(from: dialect.table("t"))),
                    ("history close", history.closeStatement(keys: "closed")),
                    ("history versions", history.insertVersionsStatement(rows: "changed"))]

        let changes = RowChangeSQL(dialect: dialect, newKey: ["_id"], oldKey: ["_id"], newFingerprints: "nf", oldFingerprints: "of")
        written += [("changes prepare", changes.preparationStatement(indexName: "nf_key")), ("changes count", changes.countStatement),
                    ("changes content match", changes.contentMatchStatement), ("changes closed keys", changes.closedKeys),
                    ("changes new versions", changes.newVersions(in: dialect.table("t")))]

        let select = try SelectStatementWriter(dialect: dialect) { _ in ["_id", "agency_id", "city", "amount", "when"] }
            .statement(SelectRequest(table: "t", columns: ["city", "amount"],
                                     predicate: .equals("city", "Paris") && .greaterThan("amount", 3) && .in("_id", ["a", "b"]),
                                     orderBy: ["when"], limit: 5)) { predicate, bound in
                var condition = ConditionWriter(dialect: dialect, arguments: bound)
                return condition.condition(predicate).map { ($0, condition.arguments) }
            }
        written.append(("select", select.sql))
        written.append(("json instant", dialect.jsonValue(#""t"."at""#, type: .timestamp)))
        return written
    }

    /// Fails naming each statement whose text is not the expected one, and any missing or extra.
    public static func assertSerialization(of written: [(name: String, sql: String)], is expected: [(String, String)],
                                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(written.map(\.name), expected.map(\.0), "the statements written", file: file, line: line)
        for ((name, sql), (_, wanted)) in zip(written, expected) where sql != wanted {
            XCTFail("\(name):\n  written:  \(sql)\n  expected: \(wanted)", file: file, line: line)
        }
    }
}
