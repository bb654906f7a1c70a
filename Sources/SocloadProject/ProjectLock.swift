import Foundation
import SocloadCore

/// Keeps two refreshes of one project from overlapping: an exclusive `flock` on the project
/// file itself, held until the refresh ends (the kernel lets it go if the process dies, so a
/// killed refresh never leaves a stale lock behind).
public final class ProjectLock {
    private let descriptor: Int32

    /// Takes the lock, waiting for a refresh that holds it (saying so unless `quiet`), or with
    /// `wait` false failing at once with exit 75.
    /// `onWait` is told when the lock is held by another refresh and this one waits.
    public init(path: String, wait: Bool, onWait: () -> Void = {}) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ProjectFileSystemError("\(path) cannot be opened to lock it: \(String(cString: strerror(errno)))", kind: .fileSystem)
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
        guard errno == EWOULDBLOCK else {
            close(descriptor)
            throw ProjectFileSystemError("\(path) cannot be locked: \(String(cString: strerror(errno)))", kind: .fileSystem)
        }
        guard wait else {
            close(descriptor)
            throw ProjectFileSystemError("another refresh of \(path) is running (without --no-wait this one waits for it)",
                                         kind: .timedOut)
        }
        onWait()
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw ProjectFileSystemError("\(path) cannot be locked: \(String(cString: strerror(errno)))", kind: .fileSystem)
            }
        }
    }

    public func release() {
        close(descriptor)
    }
}

/// A project file that could not be locked, or a lock file that could not be written.
public struct ProjectFileSystemError: CategorizedError, Sendable {
    public let description: String
    public let kind: FailureKind

    init(_ description: String, kind: FailureKind = .fileSystem) {
        self.description = description
        self.kind = kind
    }
}
