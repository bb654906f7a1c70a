import SocloadCore
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
        usesEnvironmentOnly ? text : CredentialRedaction.url(text)
    }

    public var description: String { redacted }
}
