import Foundation

/// Before a command writes a SQLite file: the file, and the folder its journal goes in, must be
/// writable by the user socload runs as. Otherwise SQLite would fail later with "attempt to write
/// a readonly database" while running some unrelated statement; this says which file, its
/// owner and mode, and who socload runs as (exit 77).
enum WritableFile {
    static func check(_ path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let folder = (path as NSString).deletingLastPathComponent
        if access(path, W_OK) != 0 {
            throw CommandFailure("cannot write \(path): permission denied (\(describe(path)); socload runs as \(user()))",
                                 exitCode: .noPermission)
        }
        let directory = folder.isEmpty ? "." : folder
        if access(directory, W_OK) != 0 {
            throw CommandFailure("cannot write in \(directory), where \((path as NSString).lastPathComponent)'s journal goes: "
                                 + "permission denied (\(describe(directory)); socload runs as \(user()))", exitCode: .noPermission)
        }
    }

    /// `owned by root, mode 644`
    private static func describe(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "unknown owner" }
        return "owned by \(name(ofUser: status.st_uid)), mode \(String(status.st_mode & 0o777, radix: 8))"
    }

    private static func user() -> String { name(ofUser: geteuid()) }

    private static func name(ofUser uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "user \(uid)" }
        return String(cString: name)
    }
}
