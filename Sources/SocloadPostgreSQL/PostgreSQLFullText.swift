import SocloadCore

/// A table's full-text index in PostgreSQL (`PlanFullText`): the generated column `_search`,
/// `to_tsvector('simple', ...)` of the indexed columns' text with accents removed, and a GIN
/// index on it. A generated column needs an immutable expression, and `unaccent()` is only
/// stable: socload keeps its own immutable `_socload_unaccent(text)` in the schema, which calls
/// the `unaccent` extension where the database has it and returns the text as it is where it
/// does not (socload never installs an extension). A search folds its words the same way, so
/// a row and a query always meet in the same form.
enum PostgreSQLFullText {
    static let functionName = "_socload_unaccent"

    /// The schema-qualified function.
    static func function(schema: String) -> String {
        "\(schema.quotedDatabaseIdentifier).\(functionName.quotedDatabaseIdentifier)"
    }

    /// Makes (or makes again) the function, before a table that uses it is created. Returns
    /// true when it removes accents (the database has `unaccent`).
    @discardableResult
    static func prepareFunction(_ transaction: PostgreSQLLoadTransaction) throws -> Bool {
        let extensionSchema = try transaction.value("SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'unaccent'")
        let body: String
        if let extensionSchema {
            let dictionary = "\(extensionSchema).unaccent"
            body = "SELECT \(extensionSchema).unaccent(\(dictionary.sqlStringLiteral)::regdictionary, $1)"
        } else {
            body = "SELECT $1"
        }
        let existing = try transaction.value("SELECT prosrc FROM pg_proc WHERE oid = to_regprocedure($1)",
                                             ["\(function(schema: transaction.schema))(text)"])
        if existing != body {
            try transaction.execute("CREATE OR REPLACE FUNCTION \(function(schema: transaction.schema))(text) RETURNS text "
                                    + "LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS \(body.sqlStringLiteral)")
        }
        return extensionSchema != nil
    }

    /// The column's definition in `CREATE TABLE`: every indexed column's text, NULL as nothing.
    static func columnDefinition(_ fullText: PlanFullText, schema: String) -> String {
        let text = fullText.columns.map { "coalesce(\($0.quotedDatabaseIdentifier)::text, '')" }.joined(separator: " || ' ' || ")
        return "\(PlanFullText.postgreSQLColumn.quotedDatabaseIdentifier) tsvector GENERATED ALWAYS AS "
            + "(to_tsvector('simple'::regconfig, \(function(schema: schema))(\(text)))) STORED"
    }

    /// The GIN index's final name.
    static func indexName(of table: PlanTable) -> String {
        LoadPlan.shortenedName(table.name + "_search_idx", toBytes: PostgreSQLTypes.maximumNameBytes)
    }

    /// The search: the words, folded as the rows were, must all be in `_search`; ranked by
    /// `ts_rank`, best first.
    static func search(table: String, schema: String, query: FullTextQuery, placeholder: Int) -> FullTextClause {
        let column = "\(PostgreSQLTypes.qualified(table, schema: schema)).\(PlanFullText.postgreSQLColumn.quotedDatabaseIdentifier)"
        let words = "plainto_tsquery('simple'::regconfig, \(function(schema: schema))($\(placeholder)))"
        return FullTextClause(join: "", condition: "\(column) @@ \(words)", rank: "ts_rank(\(column), \(words)) DESC",
                              argument: .text(query.words.joined(separator: " ")))
    }
}
