import SocloadCore
import SocloadDatabase

/// A table's full-text index in SQLite (`PlanFullText`): the FTS5 table `T_fts` over the
/// indexed columns of `T` (external content: the words are indexed, the text stays in `T`),
/// tokenized `unicode61 remove_diacritics 2` (case and accents folded), built from the table's
/// rows after each new copy (whose rowids are new), and kept by three triggers when rows are
/// inserted, updated or deleted afterwards (an upsert, the user's own statements).
struct SQLiteFullText {
    let db: Database
    let table: PlanTable
    let fullText: PlanFullText

    init?(db: Database, table: PlanTable) {
        guard let fullText = table.fullText else { return nil }
        self.db = db
        self.table = table
        self.fullText = fullText
    }

    var indexTable: String { PlanFullText.sqliteTable(of: table.name) }

    /// The triggers' names: socload's own objects on the table.
    static func triggerNames(of table: PlanTable) -> [String] {
        guard table.fullText != nil else { return [] }
        return ["insert", "delete", "update"].map { "\(PlanFullText.sqliteTable(of: table.name))_\($0)" }
    }

    /// Makes the index anew from the table's rows, and its triggers.
    func build() throws {
        let index = indexTable.quotedDatabaseIdentifier
        let quotedTable = table.name.quotedDatabaseIdentifier
        for trigger in Self.triggerNames(of: table) {
            try db.execute(sql: "DROP TRIGGER IF EXISTS \(trigger.quotedDatabaseIdentifier)")
        }
        try db.withoutSecureDelete { try db.execute(sql: "DROP TABLE IF EXISTS \(index)") }
        let columns = fullText.columns.map(\.quotedDatabaseIdentifier)
        let list = columns.joined(separator: ", ")
        try db.execute(sql: "CREATE VIRTUAL TABLE \(index) USING fts5(\(list), content=\(table.name.sqlStringLiteral), "
                            + "content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')")
        try db.execute(sql: "INSERT INTO \(index) (\(index)) VALUES ('rebuild')")
        let new = columns.map { "new.\($0)" }.joined(separator: ", ")
        let old = columns.map { "old.\($0)" }.joined(separator: ", ")
        let names = Self.triggerNames(of: table).map(\.quotedDatabaseIdentifier)
        try db.execute(sql: "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(quotedTable) BEGIN "
                            + "INSERT INTO \(index) (rowid, \(list)) VALUES (new.rowid, \(new)); END")
        try db.execute(sql: "CREATE TRIGGER \(names[1]) AFTER DELETE ON \(quotedTable) BEGIN "
                            + "INSERT INTO \(index) (\(index), rowid, \(list)) VALUES ('delete', old.rowid, \(old)); END")
        try db.execute(sql: "CREATE TRIGGER \(names[2]) AFTER UPDATE ON \(quotedTable) BEGIN "
                            + "INSERT INTO \(index) (\(index), rowid, \(list)) VALUES ('delete', old.rowid, \(old)); "
                            + "INSERT INTO \(index) (rowid, \(list)) VALUES (new.rowid, \(new)); END")
    }
}
