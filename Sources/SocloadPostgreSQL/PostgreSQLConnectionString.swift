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

    /// The text as libpq must read it: a user part typed unencoded (`ana:p@ss@db`, whose `@`
    /// libpq would take for the host's start, printing the password's end in its errors) gets
    /// its reserved characters percent-encoded; what is already encoded (`p%40ss`) stays.
    var libpqText: String {
        guard !usesEnvironmentOnly, let schemeEnd = text.range(of: "://") else { return text }
        let (userInfo, rest) = CredentialRedaction.splitUserInfo(text[schemeEnd.upperBound...])
        guard let userInfo else { return text }
        let user = userInfo.firstIndex(of: ":").map { userInfo[..<$0] } ?? userInfo
        let password = userInfo.firstIndex(of: ":").map { userInfo[userInfo.index(after: $0)...] }
        return String(text[..<schemeEnd.upperBound]) + Self.encoded(user) + (password.map { ":" + Self.encoded($0) } ?? "")
            + "@" + rest
    }

    /// Every byte but the unreserved ones and a `%` that starts an escape, percent-encoded.
    private static func encoded(_ part: Substring) -> String {
        let bytes = Array(part.utf8)
        var result = ""
        for (index, byte) in bytes.enumerated() {
            let isHex = { (i: Int) in i < bytes.count && (bytes[i] | 0x20 >= UInt8(ascii: "a") && bytes[i] | 0x20 <= UInt8(ascii: "f")
                                                          || bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")) }
            let unreserved = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") || byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
                || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || "-._~".utf8.contains(byte)
            if unreserved || byte == UInt8(ascii: "%") && isHex(index + 1) && isHex(index + 2) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }
}
