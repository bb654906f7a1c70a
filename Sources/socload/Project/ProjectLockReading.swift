import Foundation
import SocloadCore
import SocloadProject

/// A project's `socload.lock` as `refresh` and `verify --locked` read it: with its journal, and
/// each load that a refresh stopped by SIGKILL had begun (`SocloadLockFile.PendingLoad`) settled
/// by the database. The load committed when its table's catalog entry was fetched at the time it
/// began or later: the lock then records what the table holds, as that refresh would have; else
/// the entry the lock had stays.
enum ProjectLockReading {
    static func read(_ project: Project, context: CommandContext) throws -> SocloadLockFile {
        var databases: [String: (any LoadedDatabase)?] = [:]
        return try SocloadLockFile.read(SocloadLockFile.path(forProject: project.path)) { _, pending in
            let key = pending.schema ?? ""
            if databases[key] == nil { databases[key] = open(project, schema: pending.schema, context: context) }
            guard let database = databases[key] ?? nil else { return nil }
            return try settled(pending, in: database)
        }
    }

    /// The entry of the table `pending` wrote, when it committed.
    static func settled(_ pending: SocloadLockFile.PendingLoad, in database: any LoadedDatabase) throws -> SocloadLockFile.Entry? {
        guard let started = ISO8601Timestamp.parse(pending.startedAt) else { return nil }
        func written(_ entry: CatalogEntry) -> Bool {
            ISO8601Timestamp.parse(entry.fetchedAt).map { $0 >= started } ?? false
        }
        var catalog: CatalogEntry?
        for key in [pending.table, pending.datasetID].compactMap({ $0 }) where catalog == nil {
            catalog = try database.entry(for: key, withDescription: false).flatMap { written($0) ? $0 : nil }
        }
        if catalog == nil, pending.table == nil, pending.datasetID == nil {
            catalog = try database.catalogEntries().first { written($0) && $0.sourceURL == pending.source }
        }
        guard let catalog else { return nil }
        var entry = try SocloadLockFile.entry(for: catalog.tableName, in: database, previous: nil, unchanged: false)
        entry?.search = pending.search
        return entry
    }

    /// The project's database in `schema`, as its entries' fetches open it; nil when it cannot
    /// be opened (nothing was committed to settle then).
    private static func open(_ project: Project, schema: String?, context: CommandContext) -> (any LoadedDatabase)? {
        let arguments = DatasetFetch.databaseArguments(project, schema: schema)
        guard let options = try? FetchCommand.parsed(arguments + ["--", "lock"]) else { return nil }
        return try? options.database.openLoaded(context, command: FetchCommand.spec, watched: false)
    }
}
