import SocloadCore

/// An error reported by PostgreSQL or by libpq, with the server's SQLSTATE when there is one.
///
/// Its description is one line, such as
/// `PostgreSQL error 22P02 (invalid_text_representation): invalid input syntax for type bigint: "x" (COPY t, line 3, column n)`.
/// Bound values and passwords are never part of it.
public struct PostgreSQLError: CategorizedError, Equatable {
    /// The five-character SQLSTATE (`23505`), or nil for a failure on the client side (libpq could
    /// not connect, the connection broke).
    public let sqlState: String?
    /// The server's primary message, or libpq's.
    public let message: String
    /// The server's detail line (which key was duplicated, say).
    public let detail: String?
    /// Where it happened (`COPY t, line 3, column n: "x"`).
    public let context: String?
    /// The statement being run, when there was one.
    public let sql: String?

    /// A kind that overrides the one the SQLSTATE gives.
    var kindOverride: FailureKind?

    public init(sqlState: String?, message: String, detail: String? = nil, context: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.context = context
        self.sql = sql
    }

    /// The same error, of another kind.
    func withKind(_ kind: FailureKind) -> PostgreSQLError {
        var error = self
        error.kindOverride = kind
        return error
    }

    /// True for 55P03, a lock that was not granted within `lock_timeout`.
    public var isLockTimeout: Bool { sqlState == "55P03" }

    /// True for 57014, a statement cancelled (by socload's `interrupt()`, say).
    public var isCancelled: Bool { sqlState == "57014" }

    /// Bad data (classes 22 and 23, and 54000 / 54011: a row or a table beyond PostgreSQL's
    /// limits) is exit 65; a server that cannot be reached, refuses the
    /// connection (class 08, 28, 3D, 57P0x, no SQLSTATE) or keeps a table locked (55P03) is 69;
    /// a privilege the role lacks (42501) is `notPermitted` (77);
    /// anything else, a disk that is full among them, is a database failure (74).
    public var kind: FailureKind {
        if let kindOverride { return kindOverride }
        guard let sqlState else { return .unavailable }
        switch String(sqlState.prefix(2)) {
        case "22", "23": return .badData
        case "08", "28", "3D": return .unavailable
        case "57" where sqlState.hasPrefix("57P0"): return .unavailable
        case "55" where sqlState == "55P03": return .unavailable
        case "42" where sqlState == "42501": return .notPermitted
        // A row too big for a page, too many columns: the data is beyond what PostgreSQL holds.
        case "54" where sqlState == "54000" || sqlState == "54011": return .badData
        default: return .database
        }
    }

    public var description: String {
        var text = "PostgreSQL error"
        if let sqlState {
            text += " \(sqlState)"
            if let name = Self.conditionNames[sqlState] { text += " (\(name))" }
        }
        text += ": \(message)"
        if let detail, !detail.isEmpty { text += "; \(detail)" }
        if let context, !context.isEmpty { text += " (\(context))" }
        if let sql { text += " - while executing `\(sql.count > 300 ? String(sql.prefix(300)) + "…" : sql)`" }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The names of the conditions socload users meet most (PostgreSQL's appendix A).
    static let conditionNames: [String: String] = [
        "08000": "connection_exception", "08001": "sqlclient_unable_to_establish_sqlconnection",
        "08006": "connection_failure", "22001": "string_data_right_truncation", "22003": "numeric_value_out_of_range",
        "22007": "invalid_datetime_format", "22008": "datetime_field_overflow", "22021": "character_not_in_repertoire",
        "22P02": "invalid_text_representation", "22P05": "untranslatable_character", "23502": "not_null_violation",
        "23503": "foreign_key_violation", "23505": "unique_violation", "23514": "check_violation",
        "25006": "read_only_sql_transaction", "28000": "invalid_authorization_specification",
        "28P01": "invalid_password", "3D000": "invalid_catalog_name", "3F000": "invalid_schema_name",
        "42501": "insufficient_privilege", "42601": "syntax_error", "42703": "undefined_column",
        "42704": "undefined_object", "42883": "undefined_function", "42P01": "undefined_table",
        "42P07": "duplicate_table", "2BP01": "dependent_objects_still_exist", "53100": "disk_full",
        "53200": "out_of_memory", "55P03": "lock_not_available", "57014": "query_canceled",
        "57P01": "admin_shutdown", "40P01": "deadlock_detected", "40001": "serialization_failure",
    ]
}
