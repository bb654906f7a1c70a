extension String {
    /// The string as a double-quoted SQL identifier, with any `"` doubled: `my "col"` → `"my ""col"""`.
    ///
    /// Every table and column name that comes from data goes through this before it reaches SQL.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The string as a single-quoted SQL literal, with any `'` doubled: `O'Hare` → `'O''Hare'`.
    /// For text that must be part of a statement (a column's name as a JSON member's name);
    /// values from data are bound instead.
    public var sqlStringLiteral: String {
        "'" + replacingOccurrences(of: "'", with: "''") + "'"
    }
}
