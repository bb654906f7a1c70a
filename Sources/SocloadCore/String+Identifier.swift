extension String {
    /// The string as a double-quoted SQL identifier, with any `"` doubled: `my "col"` → `"my ""col"""`.
    ///
    /// Every table and column name that comes from data goes through this before it reaches SQL.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
