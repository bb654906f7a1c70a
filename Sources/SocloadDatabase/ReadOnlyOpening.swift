import CSQLite
import Foundation
import Glibc

/// How a read-only connection names its file to SQLite.
///
/// A WAL database is read through its `-shm` file, which SQLite creates beside the database; in a
/// directory the reader cannot write (a shared read-only mount, a package's data directory) that
/// fails, and even a SELECT reports "attempt to write a readonly database". SQLite can then open
/// the file `immutable=1` (no locks, no `-shm`), which is safe exactly when no one can be writing
/// it — and no one can write a WAL database in a directory where its `-wal` and `-shm` cannot be
/// created. So: in such a directory, with no `-wal` file beside the database, open it immutable;
/// with a `-wal` (whose changes an immutable reader would miss), refuse with the reason.
enum ReadOnlyOpening {
    /// The name to give `sqlite3_open_v2` for reading `path`: the path itself, or a `file:` URI
    /// with `immutable=1` (built here from the path, so nothing in it is read as URI syntax).
    static func name(for path: String) throws -> String {
        guard !canWriteDirectory(of: path) else { return path }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if FileManager.default.fileExists(atPath: absolute + "-wal") {
            throw DatabaseError(extendedResultCode: SQLITE_CANTOPEN, message: """
                cannot read \(path): its directory cannot be written and it has a write-ahead log \
                (\(path)-wal) that only a writer can merge; read it where the directory is writable, \
                or have its owner checkpoint it
                """)
        }
        return "file:" + percentEncoded(absolute) + "?immutable=1"
    }

    /// True when files can be created beside `path` (an in-memory name counts as writable).
    static func canWriteDirectory(of path: String) -> Bool {
        guard !path.isEmpty, path != ":memory:" else { return true }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return access((absolute as NSString).deletingLastPathComponent, W_OK) == 0
    }

    /// The path with every byte but unreserved ones and `/` percent-encoded, as SQLite's URI
    /// names expect (`?`, `#` and `%` in a file name stay part of it).
    static func percentEncoded(_ path: String) -> String {
        var text = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                text += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return text
    }
}
