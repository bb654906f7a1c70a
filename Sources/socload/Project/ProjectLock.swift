import Foundation

/// Keeps two refreshes of one project from overlapping: an exclusive `flock` on the project
/// file itself, held until the refresh ends (the kernel lets it go if the process dies, so a
/// killed refresh never leaves a stale lock behind).
final class ProjectLock {
    private let descriptor: Int32

    /// Takes the lock, waiting for a refresh that holds it (saying so unless `quiet`), or with
    /// `wait` false failing at once with exit 75.
    init(path: String, wait: Bool, quiet: Bool) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure("\(path) cannot be opened to lock it: \(String(cString: strerror(errno)))", exitCode: .ioError)
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
        guard errno == EWOULDBLOCK else {
            close(descriptor)
            throw CommandFailure("\(path) cannot be locked: \(String(cString: strerror(errno)))", exitCode: .ioError)
        }
        guard wait else {
            close(descriptor)
            throw CommandFailure("another refresh of \(path) is running (without --no-wait this one waits for it)",
                                 exitCode: .timedOut)
        }
        if !quiet { StandardError.line("Waiting for another refresh of \(path) to finish") }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                throw CommandFailure("\(path) cannot be locked: \(String(cString: strerror(errno)))", exitCode: .ioError)
            }
        }
    }

    func release() {
        close(descriptor)
    }
}
