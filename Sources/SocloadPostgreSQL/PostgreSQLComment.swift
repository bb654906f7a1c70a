/// `COMMENT ON` statements. PostgreSQL takes no parameter in a comment: a short text is written
/// as a literal; a long one (a dataset's description of megabytes) is bound as a parameter and
/// applied by the server, so the client does not build and send a statement of its size.
enum PostgreSQLComment {
    /// Texts this long are bound rather than written into the statement.
    static let boundBytes = 1 << 16

    /// Sets the comment on `object` (`TABLE "s"."t"`, `COLUMN "s"."t"."c"`, already quoted).
    static func set(on object: String, to text: String, run: (String, [String?]) throws -> Void) throws {
        guard text.utf8.count >= boundBytes else {
            return try run("COMMENT ON \(object) IS \(literal(text))", [])
        }
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
