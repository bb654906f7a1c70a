import Foundation
import SocloadCore

/// A new, empty file of this process's own in `$TMPDIR` (else `/tmp`), for a spool: what a
/// download, a document read from standard input or a platform's pages are written to before a
/// load reads them.
package enum TemporaryFile {
    /// Creates `PREFIX-XXXXXX` there (`mkstemp`): its descriptor, open for writing, and its path.
    package static func make(prefix: String) throws -> (descriptor: Int32, path: String) {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/\(prefix)-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else {
            throw LoadError.unreadableFile(path: directory, reason: "cannot create a temporary file: " + String(cString: strerror(errno)))
        }
        return (descriptor, String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
