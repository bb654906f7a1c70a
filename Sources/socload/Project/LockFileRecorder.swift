import Foundation
import SocloadCore
import SocloadProject
import SocloadSocrata

/// Keeps `socload.lock` in step with the database during a refresh: each dataset that wrote its
/// table is recorded as soon as its transaction committed, in the writer's turn (its line in the
/// lock's journal, `SocloadLockFile.journal`), so a refresh stopped by SIGINT or SIGKILL leaves a
/// lock that `verify --locked` agrees with for what was committed; at the end
/// (or on interruption) every dataset that finished is recorded and datasets no longer in the
/// project dropped. Loads side by side record one at a time.
final class LockFileRecorder: @unchecked Sendable {
    private let path: String
    private let project: Project
    private let chosen: [Project.Dataset]
    private let fetches: [DatasetFetch]
    private let context: CommandContext
    private let previous: SocloadLockFile
    private var next: SocloadLockFile
    /// The datasets recorded as they committed (not hashed again at the end).
    private var recorded: Set<String> = []
    private let lock = NSLock()

    /// `previous`: the lock as the refresh read it (`ProjectLockReading`).
    init(project: Project, previous: SocloadLockFile, chosen: [Project.Dataset], fetches: [DatasetFetch], context: CommandContext) throws {
        self.project = project
        self.chosen = chosen
        self.fetches = fetches
        self.context = context
        path = SocloadLockFile.path(forProject: project.path)
        self.previous = previous
        next = previous
        // A journal a killed refresh left is folded in now (its loads settled by the reader):
        // this refresh's lines start a journal of their own.
        if SocloadLockFile.hasJournal(lock: path) { try previous.write(to: path) }
        // Datasets no longer in the project go (those a search of the project found stay: a
        // search that lists one no longer reports it, see `ProjectExpansion.left`).
        next.datasets = previous.datasets.filter { name, entry in
            project.datasets.contains { $0.name == name } || project.searches.contains { $0.name == entry.search }
        }
    }

    /// Records, in the writer's turn before a dataset's load writes, that it may commit (its
    /// line in the journal), so that a refresh SIGKILL stops between the load's COMMIT and its
    /// entry's line is settled by the next reader (`ProjectLockReading`).
    func loading(_ name: String, _ request: LoadRequest) throws {
        let dataset = chosen.first { $0.name == name }
        let pending = SocloadLockFile.PendingLoad(
            table: request.spec.tableName ?? previous.datasets[name]?.table, datasetID: request.reference.datasetID,
            source: request.reference.displaySource, schema: dataset?.connection.schema,
            search: dataset?.search ?? previous.datasets[name]?.search,
            startedAt: ISO8601Timestamp.nowToTheSecond())
        try lock.withLock { try SocloadLockFile.journal(name, pending: pending, lock: path) }
    }

    /// Records one dataset that committed a new copy of its table, in the lock's journal (one
    /// line, whatever the number of datasets; `finish` folds it into the lock).
    func committed(_ name: String, _ outcome: DatasetOutcome) throws {
        guard outcome.wroteTable else { return }
        try lock.withLock {
            try record(name, outcome)
            recorded.insert(name)
            if let entry = next.datasets[name] { try SocloadLockFile.journal(name, entry, lock: path) }
        }
    }

    /// Records every dataset that finished and writes the lock file when it changed.
    func finish(_ results: [(name: String, result: DatasetBatch.Result)]) throws {
        try lock.withLock {
            for case let (name, .done(outcome)) in results where !recorded.contains(name) {
                try record(name, outcome)
            }
            if next != previous || !FileManager.default.fileExists(atPath: path) || SocloadLockFile.hasJournal(lock: path) {
                try next.write(to: path)
            }
        }
    }

    private func record(_ name: String, _ outcome: DatasetOutcome) throws {
        let search = chosen.first { $0.name == name }?.search ?? previous.datasets[name]?.search
        // Up to date since the load the lock records (the same fetch): that entry, unread again.
        if !outcome.wroteTable, var locked = previous.datasets[name], let entry = outcome.summary?.catalogEntry,
           locked.fetchedAt == entry.fetchedAt, locked.table == entry.tableName, locked.rowCount == entry.rowCount {
            locked.search = search
            next.datasets[name] = locked
            return
        }
        guard let index = chosen.firstIndex(where: { $0.name == name }) else { return }
        // Through the batch's connection: on SQLite the one the loads write through, called in
        // the writer's turn, which has the schema as it is now (another would read it all again).
        let batch = fetches[index].batch ?? BatchDatabase(database: fetches[index].database, context: context)
        var entry = try batch.reading { database in
            try SocloadLockFile.entry(for: outcome.table, in: database, previous: previous.datasets[name], unchanged: !outcome.wroteTable)
        }
        entry?.search = search
        next.datasets[name] = entry
    }
}
