import SocloadCore

extension RowFilter {
    /// The predicate as a WHERE condition in SQLite's SQL (`?` placeholders), or nil when it is
    /// no condition at all. The column types are not known here, so any text value naming a
    /// period finer than a year is taken as one (see `ConditionWriter`, which writes it).
    ///
    ///     let fragment = RowFilter.lessThanOrEqual("d", "2015-10-29").sql()
    ///     // fragment?.sql == "\"d\" < ?", fragment?.arguments == [.text("2015-10-30")]
    public func sql() -> SQLFragment? {
        var writer = ConditionWriter(dialect: SQLiteDialect())
        return writer.condition(self).map { SQLFragment(sql: $0, arguments: writer.arguments) }
    }
}
