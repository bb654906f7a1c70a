import SocloadCore

/// The read role for a PostgreSQL schema socload loaded.
extension PostgreSQLDatabase: LoadedDatabase {
    public var place: String { "schema \(schema) of \(connection.location)" }

    public var containsIgnoresAccents: Bool { hasUnaccent }

    public var cancelAction: @Sendable () -> Void { connection.cancelAction }

    public func entry(for tableOrDatasetID: String, withDescription: Bool) throws -> CatalogEntry? {
        try catalog.entry(for: tableOrDatasetID, withDescription: withDescription)
    }

    public func catalogEntries() throws -> [CatalogEntry] {
        try catalog.entries()
    }

    public func schemaChanges(of table: String) throws -> [RecordedSchemaChange] {
        try catalog.schemaChanges(of: table)
    }

    public func refreshes(of table: String) throws -> [RefreshRecord] {
        try catalog.refreshes(of: table)
    }

    public func rowChanges(of table: String, since: String) throws -> [RecordedRowChange] {
        try catalog.rowChanges(of: LoadPlan.shortenedName(table, toBytes: PostgreSQLTypes.maximumNameBytes), since: since)
    }

    /// The plan of the table of this name, as the catalog records it (a name longer than
    /// PostgreSQL keeps is looked up as it was shortened).
    public func planTable(named table: String) throws -> PlanTable? {
        try catalog.planTable(named: LoadPlan.shortenedName(table, toBytes: PostgreSQLTypes.maximumNameBytes))
    }

    public func selectStatement(_ request: SelectRequest) throws -> SQLFragment {
        try selectQuery(from: request.table, columns: request.columns, where: request.predicate,
                        orderBy: request.orderBy, limit: request.limit, following: request.following, search: request.search)
    }

    public func read(_ statement: SQLFragment, columns: ([String]) -> Void, row: ([DatabaseValue]) throws -> Void) throws {
        try run(statement.sql, parameters: statement.arguments.map(Self.parameterText), columns: columns, row: row)
    }

    /// Placeholders are `$1`, `$2`... (named ones are refused); the statement runs with the
    /// schema first on the search path, then `public` (where extensions such as PostGIS usually
    /// live), and nothing in it is rewritten.
    public func runUserStatement(_ sql: String, parameters: UserParameters, allowingChanges: Bool,
                                 columns: ([String]) -> Void, row: ([DatabaseValue]) throws -> Void) throws {
        if let (name, value) = parameters.named.sorted(by: { $0.key < $1.key }).first {
            throw ReadError.parameters("PostgreSQL takes $1, $2... placeholders: give --param values in order, not ':\(name)=\(value)'")
        }
        try connection.execute("SELECT set_config('search_path', $1, false)", [schema.quotedDatabaseIdentifier + ", public"])
        do {
            try run(sql, parameters: parameters.positional, allowingChanges: allowingChanges, columns: columns, row: row)
        } catch let error as PostgreSQLError where error.sqlState == "08P01" && error.message.contains("bind message supplies") {
            throw ReadError.parameters(error.message)
        } catch PostgreSQLDatabaseError.changeRefused {
            throw ReadError.changeRefused
        }
    }

    /// A bound value as the text PostgreSQL reads it.
    static func parameterText(_ value: DatabaseValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text): return text
        case .blob(let bytes): return "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
        }
    }
}
