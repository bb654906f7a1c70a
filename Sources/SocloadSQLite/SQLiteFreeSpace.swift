import SocloadCore
import Foundation
import Glibc
import SocloadDatabase

/// A reload writes a whole new copy of the table before the old one goes: in WAL mode its pages
/// are written twice (the log, then the database file at the checkpoint). Before the first row,
/// the space that needs is compared with what the file system has free, so a full disk stops
/// the load at once (`LoadError.notEnoughSpace`, exit 74) instead of half-way.
enum SQLiteFreeSpace {
    /// Throws when the directory of the database has less room than a new copy of `table` (as
    /// large as the one there now, with its indexes) needs. A table that is not there yet, or
    /// a build of SQLite without `dbstat`, is not checked.
    static func check(db: Database, table: String) throws {
        guard !db.path.isEmpty, db.path != ":memory:" else { return }
        let parent = (db.path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? FileManager.default.currentDirectoryPath : parent
        var stats = statvfs()
        guard statvfs(directory, &stats) == 0 else { return }
        let available = Int64(stats.f_bavail) * Int64(stats.f_frsize)
        let writeAheadLogging = (try? db.fetchOne(String.self, sql: "SELECT journal_mode FROM pragma_journal_mode"))?.lowercased() == "wal"
        let copies: Int64 = writeAheadLogging ? 2 : 1
        // The whole database's pages bound the table's: with room for those, no page is read.
        let pages = (try? db.fetchOne(Int64.self, sql: "SELECT page_count - freelist_count FROM pragma_page_count, pragma_freelist_count")) ?? 0
        let pageSize = (try? db.fetchOne(Int64.self, sql: "PRAGMA page_size")) ?? 4096
        guard available < pages * pageSize * copies else { return }
        // Else the table's own pages and its indexes' (dbstat reads each page of them).
        guard let bytes = try? db.fetchOne(Int64.self, sql: """
                  SELECT sum(pgsize) FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = ? COLLATE NOCASE)
                  """, arguments: [table]), bytes > 0 else { return }
        let needed = bytes * copies
        if available < needed {
            throw LoadError.notEnoughSpace(table: table, needed: needed, available: available,
                                           directory: directory, writtenTwice: writeAheadLogging)
        }
    }
}
