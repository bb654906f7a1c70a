import Foundation

/// `socload.lock-journal`, beside the lock: what a refresh records as each dataset commits, one
/// line each (`{"dataset":NAME,"entry":{...}}`), so that recording a dataset costs the same
/// however many datasets the lock holds (rewriting the whole lock at each commit made a refresh of
/// N datasets write N² entries). `read` applies it over the lock; a refresh folds it into the lock
/// when it ends or is interrupted (`write(to:)` removes it), and one that SIGKILL stopped leaves it
/// for the next read, so `verify --locked` agrees with what was committed either way.
extension SocloadLockFile {
    /// The journal beside the lock at `path`: `socload.lock` → `socload.lock-journal`.
    public static func journalPath(forLock path: String) -> String {
        path + "-journal"
    }

    /// One line of the journal: a dataset's new entry, or a load it began (`PendingLoad`).
    struct JournalLine: Codable {
        var dataset: String
        var entry: Entry?
        var pending: PendingLoad?
    }

    /// Appends a dataset's new entry to the journal of the lock at `path`, one line in one write.
    /// A line a kill cut short is ended first, so it stays apart from the next.
    public static func journal(_ name: String, _ entry: Entry, lock path: String) throws {
        try appendJournal(JournalLine(dataset: name, entry: entry), lock: path)
    }

    static func appendJournal(_ journalLine: JournalLine, lock path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(journalLine)
        line.append(0x0A)
        let journal = journalPath(forLock: path)
        let descriptor = open(journal, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ProjectFileSystemError("\(journal) cannot be written: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var last: UInt8 = 0x0A
        let size = lseek(descriptor, 0, SEEK_END)
        if size > 0, pread(descriptor, &last, 1, size - 1) == 1, last != 0x0A { line.insert(0x0A, at: line.startIndex) }
        let written = line.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else {
            throw ProjectFileSystemError("\(journal) cannot be written: \(written < 0 ? String(cString: strerror(errno)) : "disk full")")
        }
    }

    /// The lock with its journal's lines applied in order (a line cut short is skipped), and
    /// for each dataset whose loads began after its last entry line, the first of them: a
    /// catalog entry fetched since it began says one of them committed (a refresh killed after
    /// a COMMIT, then the next one killed before its own).
    func applyingJournal(of path: String) -> (SocloadLockFile, pending: [(String, PendingLoad)]) {
        guard let data = FileManager.default.contents(atPath: Self.journalPath(forLock: path)) else { return (self, []) }
        var file = self
        var pending: [(String, PendingLoad)] = []
        let decoder = JSONDecoder()
        for line in data.split(separator: 0x0A) {
            guard let applied = try? decoder.decode(JournalLine.self, from: Data(line)) else { continue }
            if let entry = applied.entry {
                file.datasets[applied.dataset] = entry
                pending.removeAll { $0.0 == applied.dataset }
            }
            if let load = applied.pending, !pending.contains(where: { $0.0 == applied.dataset }) {
                pending.append((applied.dataset, load))
            }
        }
        return (file, pending)
    }

    /// True when the lock at `path` has a journal not folded in yet.
    public static func hasJournal(lock path: String) -> Bool {
        FileManager.default.fileExists(atPath: journalPath(forLock: path))
    }
}
