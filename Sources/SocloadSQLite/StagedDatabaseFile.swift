import SocloadCore
import CFileSystem
import Foundation
import Glibc

/// A new database built under a temporary name beside its target and moved into place only when
/// it is complete, so that a failed first load leaves no file, and a file that appears meanwhile
/// (another process's database) is never replaced.
///
/// Deleting a half-built database after a failure is not safe: another process may have opened
/// the file meanwhile and would lose what it wrote. Building it elsewhere and moving it with
/// `link` (which fails when the target exists) then `unlink` avoids the question.
///
///     let staged = try StagedDatabaseFile(target: "city.sqlite")
///     let queue = try DatabaseQueue(path: staged.path)
///     // ... load, then:
///     queue.close()
///     try staged.moveIntoPlace()       // or staged.discard() after a failure
///
/// A library user who opens a `DatabaseQueue` on a path owns that file; socload's loader never
/// moves files itself. This is what the `socload` command uses for a database that does not exist.
public final class StagedDatabaseFile {
    /// Where the database is finally wanted.
    public let target: String
    /// The temporary file to build it in: `.NAME.socload-PID-RANDOM` in the target's directory.
    public let path: String
    private var finished = false

    /// Creates the empty temporary file (an empty file is an empty SQLite database), with the
    /// permissions a new file gets (0644 less the umask).
    public init(target: String) throws {
        self.target = target
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).socload-"
        Self.removeAbandoned(in: directory, prefix: prefix)
        path = directory.appendingPathComponent("\(prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StagedDatabaseError.cannotCreate(target: target, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
    }

    /// Gives the finished database the target's name, unless a file of that name appeared since:
    /// then `StagedDatabaseError.targetAppeared` is thrown and the staged file is removed. Close
    /// every connection to `path` first.
    public func moveIntoPlace() throws {
        guard !finished else { return }
        defer { discard() }
        if link(path, target) != 0 {
            let code = errno
            if code == EEXIST { throw StagedDatabaseError.targetAppeared(target) }
            guard code == EPERM || code == EOPNOTSUPP || code == ENOSYS else {
                throw StagedDatabaseError.cannotMove(target: target, reason: String(cString: strerror(code)))
            }
            // A file system without hard links: rename, which never replaces an existing file
            // when the kernel supports RENAME_NOREPLACE.
            try renameWithoutReplacing()
        }
    }

    /// Removes the staged file and any journal SQLite left beside it.
    public func discard() {
        finished = true
        for suffix in ["", "-journal", "-wal", "-shm"] {
            unlink(path + suffix)
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// Staged files of processes that no longer run (killed with SIGKILL, say) are removed.
    private static func removeAbandoned(in directory: URL, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ Int32($0) }), pid > 0,
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    private func renameWithoutReplacing() throws {
        if socload_rename_noreplace(path, target) == 0 { return }
        let code = errno
        if code == EEXIST { throw StagedDatabaseError.targetAppeared(target) }
        throw StagedDatabaseError.cannotMove(target: target, reason: String(cString: strerror(code)))
    }
}

/// Why a staged database could not be created or moved into place.
public enum StagedDatabaseError: CategorizedError, Equatable {
    case cannotCreate(target: String, reason: String)
    /// Another process created the target while the database was being built.
    case targetAppeared(String)
    case cannotMove(target: String, reason: String)

    public var kind: FailureKind { .database }

    public var description: String {
        switch self {
        case .cannotCreate(let target, let reason):
            return "cannot create the database '\(target)': \(reason)"
        case .targetAppeared(let target):
            return "'\(target)' was created by another process while this load ran; it was left as it is "
                + "and nothing was loaded (run the command again to load into it)"
        case .cannotMove(let target, let reason):
            return "cannot move the new database into place as '\(target)': \(reason)"
        }
    }
}
