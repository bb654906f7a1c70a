import Foundation

/// A `--db` value that names a PostgreSQL database rather than a SQLite file:
/// `postgresql://user@host:5432/db`, `postgres://...`, or `postgres:` alone, meaning "whatever the
/// PG* environment variables, `~/.pgpass` and service files say". Everything else in it is left
/// to libpq (`PQconnectdbParams` with `expand_dbname`), so URIs, `?sslmode=`, `?service=` and
/// Unix-socket hosts work as they do for psql.
///
///     let target = PostgreSQLConnectionString("postgresql://ana:secret@db.example.org/opendata")
///     print(target?.redacted ?? "")  // postgresql://ana@db.example.org/opendata
public struct PostgreSQLConnectionString: Sendable, Equatable, CustomStringConvertible {
    /// The text as given (with its password, if it has one): only ever handed to libpq.
    public let text: String

    /// nil unless `text` starts with `postgresql:` or `postgres:` (any case).
    public init?(_ text: String) {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("postgresql:") || lowered.hasPrefix("postgres:") else { return nil }
        self.text = text
    }

    /// True for `postgres:` or `postgresql:` alone: every setting comes from the environment.
    public var usesEnvironmentOnly: Bool {
        let lowered = text.lowercased()
        return lowered == "postgres:" || lowered == "postgresql:"
    }

    /// The connection string without its password (in the user part or as a `password=` query
    /// parameter): what socload prints, logs and stores in the catalog.
    public var redacted: String {
        guard !usesEnvironmentOnly, let schemeEnd = text.range(of: "://") else { return text }
        var rest = String(text[schemeEnd.upperBound...])
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[mark...])
            rest = String(rest[..<mark])
        }
        // user:password@host — the last @ before the path ends the user part.
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            let userInfo = rest[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                rest = String(userInfo[..<colon]) + String(rest[at...])
            }
        }
        if !query.isEmpty {
            let parameters = query.dropFirst().split(separator: "&", omittingEmptySubsequences: false)
                .filter { !$0.lowercased().hasPrefix("password=") }
            query = parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&")
        }
        return String(text[..<schemeEnd.upperBound]) + rest + query
    }

    public var description: String { redacted }
}
