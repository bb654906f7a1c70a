/// `COMMENT ON` statements. PostgreSQL takes no parameter in a comment, so the portal's text is
/// bound as a parameter of `set_config` and applied by the server: a value from the data never
/// appears in SQL text (`SOCLOAD_SQL_LOG` shows none), and a description of megabytes is not
/// built into a statement of its size.
enum PostgreSQLComment {
    /// Sets the comment on `object` (`TABLE "s"."t"`, `COLUMN "s"."t"."c"`, already quoted).
    static func set(on object: String, to text: String, run: (String, [String?]) throws -> Void) throws {
        try run("SELECT length(set_config('socload.comment', $1, true))", [text])
        let body = "BEGIN EXECUTE \(literal("COMMENT ON \(object) IS ")) || quote_literal(current_setting('socload.comment')); END"
        var tag = "$socload$"
        while body.contains(tag) { tag.insert("x", at: tag.index(before: tag.endIndex)) }
        try run("DO \(tag)\(body)\(tag)", [])
        try run("SELECT set_config('socload.comment', '', true)", [])
    }

    /// A text as an SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
