import Foundation
import SocloadCore
import SocloadSocrata

/// What became of one dataset of several: its table and, in words, what was done.
struct DatasetOutcome {
    let table: String
    var result: String
    /// False when nothing was written (up to date, a plan only).
    var wroteTable = true
    /// `loaded`, `up_to_date`, `synced`, `planned` (`--json`).
    var status = "loaded"
    var summary: LoadSummary?
    /// The Parquet file a project entry's `"export"` wrote the table to (`ProjectExport`).
    var exported: String?
    /// A sync's (`fetch --incremental`).
    var sync: SyncSummary?
    /// Whether the dataset keeps its schedule (`refresh`): fresh, stale, gone, moved, unknown.
    var watch: DatasetWatch?
    /// The rows of a table kept as it was because its dataset is gone (`status` `kept`).
    var keptRows: Int?

    /// True when the load changed rows or columns (a first load, or one that did not count its
    /// rows, counts as a change): what `--fail-on changed` finds of a refresh.
    var changedSomething: Bool {
        guard wroteTable else { return false }
        if let sync { return sync.inserted + sync.updated + (sync.deleted ?? 0) > 0 || !sync.schemaChanges.isEmpty }
        guard let summary else { return true }
        if !summary.schemaChanges.isEmpty { return true }
        guard let changes = summary.rowChanges else { return true }
        return changes.added + changes.changed + changes.removed > 0 || (changes.reissued ?? 0) > 0
    }

    /// Worth a line of the closing table even when nothing was written: stale, gone or moved.
    var needsAttention: Bool { [.stale, .gone, .moved].contains(watch?.state) || exported != nil }
}

/// Several datasets loaded one after another by the same code as one (`fetch A B C`,
/// `refresh`): each is its own transaction, one failure does not stop the others, and an
/// interrupt (Ctrl-C, SIGTERM) stops them all, the datasets already done staying done.
///
/// The closing table goes to standard error, a line a dataset that failed or changed (every
/// dataset with `verbose`; the up-to-date ones are counted in one line otherwise, so a nightly
/// refresh of a thousand datasets prints what happened, not a thousand lines); the command then
/// fails with the largest of the failed datasets' exit codes, or succeeds when none failed.
enum DatasetBatch {
    /// Datasets worked on at once (`--jobs`) unless told otherwise.
    static let defaultJobs = 4

    struct Entry {
        /// How the dataset is named in messages: its id, URL or file, or a project entry's name.
        let name: String
        let load: (DatasetJob) throws -> DatasetOutcome
    }

    enum Result {
        case done(DatasetOutcome)
        case failed(message: String, code: ExitCode)
    }

    /// Runs `entries`, `jobs` at a time (see `DatasetJob`). `oneWriter`: the database takes one
    /// load at a time (SQLite), so loads side by side take turns and download ahead meanwhile.
    /// `whenDone` sees every dataset's result before the command fails for the failed ones, or
    /// stops for a signal (`refresh` records what the others loaded in the lock file).
    static func run(_ entries: [Entry], jobs: Int = 1, oneWriter: Bool = true, quiet: Bool, verbose: Bool = false,
                    report: ((DatasetReport) -> Void)? = nil,
                    whenDone: ([(name: String, result: Result)]) throws -> Void = { _ in }) throws {
        let stop = LoadCancellation()
        let trap = SignalTrap { stop.cancel(signal: $0) }
        defer { trap.restore() }
        let sideBySide = jobs > 1 && entries.count > 1
        let job = DatasetJob(stop: stop, turn: sideBySide && oneWriter ? NSLock() : nil, sideBySide: sideBySide)
        let reportLock = NSLock()
        let outcomes = DatasetJob.run(entries.count, jobs: sideBySide ? jobs : 1, stop: stop) { index -> Result in
            let entry = entries[index]
            do {
                try stop.check()
                let outcome = try entry.load(job)
                reportLock.withLock { report?(DatasetReport(dataset: entry.name, outcome: outcome)) }
                return .done(outcome)
            } catch {
                var error = error
                // Whether the database file was created is the batch's to say, not one dataset's:
                // another may create it before, or after, this one fails.
                if entries.count > 1, var failure = error as? LoadFailure, failure.newDatabase != nil {
                    failure.newDatabase = nil
                    error = failure
                }
                let (message, code) = describe(error)
                reportLock.withLock {
                    report?(DatasetReport(dataset: entry.name, error: message, exitCode: code))
                    if code != .interrupted && code != .terminated {
                        // Named once: a message about a file often starts with its name already.
                        let named = message.hasPrefix(entry.name + ":") ? message : "\(entry.name): " + message
                        StandardError.line("Error: " + SocloadTool.oneLine(named))
                    }
                }
                return .failed(message: code == .interrupted || code == .terminated ? "interrupted" : message, code: code)
            }
        }
        let results: [(name: String, result: Result)] = zip(entries, outcomes).compactMap { entry, outcome in
            outcome.map { (name: entry.name, result: $0) }
        }
        if let signal = stop.signal {
            printTable(results, verbose: verbose)
            if results.count < entries.count {
                let left = entries.count - results.count
                StandardError.line("  and \(NumberText.grouped(left)) not started (\(left == 1 ? "it keeps its" : "they keep their") previous copy)")
            }
            // What finished is recorded (`refresh`'s lock file) before the command stops.
            try? whenDone(results)
            throw LoadError.interrupted(signal: signal)
        }
        let failures = results.compactMap { item -> (String, ExitCode)? in
            if case .failed(_, let code) = item.result { return (item.name, code) }
            return nil
        }
        if !quiet || !failures.isEmpty { printTable(results, verbose: verbose) }
        try whenDone(results)
        guard let worst = failures.map(\.1).max(by: { $0.rawValue < $1.rawValue }) else { return }
        // Whole names, five at most: the line stays one line however many failed.
        throw CommandFailure("\(failures.count) of \(results.count) datasets failed: "
                             + failures.map { TerminalText.escaped($0.0) }.shortList(), exitCode: worst)
    }

    /// A usage error of one dataset (a reference that is no dataset) is that dataset's failure.
    static func describe(_ error: any Error) -> (String, ExitCode) {
        if let usage = error as? UsageError { return (usage.message, .usage) }
        return SocloadTool.describe(error)
    }

    /// `  n5m4-mism  n5m4_mism  loaded 300 rows`, a line a dataset that failed or was written
    /// (every dataset when `verbose`), names padded to one width; then how many were up to date:
    /// `  and 950 more up to date (--verbose lists them)`.
    static func printTable(_ results: [(name: String, result: Result)], verbose: Bool = false) {
        let shown = results.filter { item in
            guard !verbose, case .done(let outcome) = item.result else { return true }
            return outcome.status != "up_to_date" || outcome.needsAttention
        }
        let names = shown.map { TerminalText.escaped($0.name) }
        let width = min(names.map(\.count).max() ?? 0, 40)
        for (name, item) in zip(names, shown) {
            let padded = name.count < width ? name + String(repeating: " ", count: width - name.count) : name
            switch item.result {
            case .done(let outcome):
                let watch = outcome.needsAttention ? outcome.watch.map { "; \($0.state.rawValue)" + ($0.note.map { ": " + $0 } ?? "") } : nil
                StandardError.line("  \(padded)  \(TerminalText.escaped(outcome.table)): \(outcome.result)\(watch ?? "")")
            case .failed(let message, let code):
                StandardError.line("  \(padded)  failed (exit \(code.rawValue)): " + SocloadTool.oneLine(message))
            }
        }
        let upToDate = results.count - shown.count
        if upToDate > 0 {
            let count = NumberText.grouped(upToDate)
            StandardError.line(shown.isEmpty
                ? "  \(upToDate == 1 ? "the dataset is up to date (--verbose lists it)" : "all \(count) datasets are up to date (--verbose lists them)")"
                : "  and \(count) more up to date (--verbose lists them)")
        }
    }
}
