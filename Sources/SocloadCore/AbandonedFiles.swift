import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Temporary files and folders a process names after itself (`PREFIX` then its process id,
/// `socload-pages-4242-...`, `socload.lock.socload-4242`) and removes when it is done; one that
/// was killed (SIGKILL, a power cut) cannot. The next process removes those whose process is
/// gone, so nothing piles up beside a nightly job.
public enum AbandonedFiles {
    /// Removes the entries of `directory` named `prefix` then the id of a process that no longer
    /// runs (then anything). Never this process's, never a running one's; errors are ignored.
    ///
    ///     AbandonedFiles.remove(in: NSTemporaryDirectory(), prefix: "socload-pages-")
    public static func remove(in directory: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = Int32(digits), pid > 0, pid != getpid(), !isRunning(pid) else { continue }
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }

    /// True when a process of that id runs (or exists but is not ours to signal).
    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
