import SocloadCore

/// A `RowFilter` in PostgreSQL's SQL, as `ConditionWriter` writes it for every database, with
/// the values as the text PostgreSQL reads.
@available(*, deprecated, message: "use ConditionWriter(dialect: PostgreSQLDialect(schema:), columnTypes:foldsAccents:)")
public struct PostgreSQLPredicateWriter {
    private var writer: ConditionWriter

    /// The values for `$1`, `$2`..., as text (NULL as nil).
    public var parameters: [String?] { writer.arguments.map(PostgreSQLDatabase.parameterText) }

    public init(columnTypes: [String: LogicalType], foldsAccents: Bool, schema: String? = nil, firstParameters: [String?] = []) {
        writer = ConditionWriter(dialect: PostgreSQLDialect(schema: schema ?? "public"), columnTypes: columnTypes,
                                 foldsAccents: foldsAccents, arguments: firstParameters.map { $0.map { .text($0) } ?? .null })
    }

    /// The condition, or nil when the predicate is no condition.
    public mutating func condition(_ predicate: RowFilter) -> String? {
        writer.condition(predicate)
    }
}
