import Foundation
import SocloadDatabase

/// With `$SOCLOAD_SQL_LOG=FILE`, every SQL statement the database runs is appended to FILE, as
/// written, with `?` placeholders: bound values never appear in it (a way to audit that data is
/// never spliced into SQL).
enum SQLLogFile {
    static func attach(to queue: DatabaseQueue, environment: [String: String]) {
        guard let path = environment["SOCLOAD_SQL_LOG"], !path.isEmpty else { return }
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        // A pipe or FIFO cannot seek: it is written as it comes.
        _ = try? handle.seekToEnd()
        queue.inDatabase { db in
            db.trace { sql in try? handle.write(contentsOf: Data((sql.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)) }
        }
    }
}
