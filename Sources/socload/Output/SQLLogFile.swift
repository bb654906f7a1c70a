import Foundation
import SocloadDatabase
import SocloadPostgreSQL

/// With `$SOCLOAD_SQL_LOG=FILE`, every SQL statement the database runs is appended to FILE, as
/// written, with its placeholders (`?` for SQLite, `$1` for PostgreSQL): bound values never
/// appear in it (a way to audit that data is never spliced into SQL). Each SQLite connection
/// opened starts with the comment line `-- connection opened` (a new connection reads the whole
/// schema first).
enum SQLLogFile {
    static func attach(to queue: DatabaseQueue, environment: [String: String]) {
        guard let write = writer(environment: environment) else { return }
        write("-- connection opened")
        queue.inDatabase { db in db.trace(write) }
    }

    /// Appends a statement to the file, on one line; nil without `SOCLOAD_SQL_LOG`. A
    /// PostgreSQL connection takes it when it is made, so its first statements are logged too.
    static func writer(environment: [String: String]) -> ((String) -> Void)? {
        guard let path = environment["SOCLOAD_SQL_LOG"], !path.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return nil }
        // A pipe or FIFO cannot seek: it is written as it comes.
        _ = try? handle.seekToEnd()
        return { sql in
            // SQLite traces a table-valued pragma's inner statement as a comment holding its
            // bound argument (`-- PRAGMA table_info='x'`): values never go to the log.
            guard !sql.hasPrefix("-- PRAGMA") else { return }
            try? handle.write(contentsOf: Data((sql.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
        }
    }
}
