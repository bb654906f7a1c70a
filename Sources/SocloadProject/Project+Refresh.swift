import Foundation
import SocloadCore
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSocrata
import SocloadSQLite

extension Project {
    /// What became of one dataset of a refresh.
    public struct Refreshed: Sendable {
        public enum Outcome: Sendable {
            /// Loaded, or found up to date (`summary.isUpToDate`).
            case loaded(LoadSummary)
            /// Synced (`"incremental": true`).
            case synced(SyncSummary)
            /// A search loaded it before and no longer lists it: its table is kept as it was.
            case leftCatalog(table: String, search: String)
        }

        /// The dataset's name in the project (`Dataset.name`).
        public let name: String
        public let result: Result<Outcome, any Error>
    }

    /// Brings the project's datasets (or those `names` names: a name, table, id, URL, file or
    /// search) up to date, as `socload refresh` does: each conditionally (`force` reloads), in
    /// its own transaction, one after another; a dataset's failure is its own result and the
    /// others go on; the searches are asked their catalogs; `socload.lock` beside the project
    /// file records what each dataset that succeeded loaded. Two refreshes of one project never
    /// overlap: this one waits for another (`wait` false: `ProjectFileSystemError` at once).
    ///
    ///     let project = try Project.load("socload.json")
    ///     for dataset in try project.refresh() {
    ///         if case .failure(let error) = dataset.result { print(dataset.name, error) }
    ///     }
    ///
    /// What the command has on top: `--jobs` (datasets side by side), `--locked`, progress.
    public func refresh(names: [String] = [], force: Bool = false, wait: Bool = true,
                        environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [Refreshed] {
        let lock = try ProjectLock(path: path, wait: wait)
        defer { lock.release() }
        let lockPath = SocloadLockFile.path(forProject: path)
        let previous = try SocloadLockFile.read(lockPath)
        let plain = Connection()
        let selection = try ProjectSelection(self, names: names, lock: previous, http: try plain.http(environment: environment),
                                             retry: plain.retry(environment: environment), environment: environment)
        // One connection for each way an entry reaches the database (its schema, a GeoPackage).
        var databases: [Connection: ProjectDatabaseConnection] = [:]
        defer { databases.values.forEach { $0.close() } }
        func database(for dataset: Dataset) throws -> ProjectDatabaseConnection {
            var key = dataset.connection
            (key.appToken, key.retries) = (nil, nil)
            if let opened = databases[key] { return opened }
            let opened = try ProjectDatabaseConnection(location: self.database ?? "socload.sqlite", connection: key)
            databases[key] = opened
            return opened
        }
        var results: [Refreshed] = []
        for dataset in selection.datasets {
            results.append(Refreshed(name: dataset.name, result: Result {
                try refresh(dataset, force: force, database: database(for: dataset), environment: environment)
            }))
        }
        results += selection.failedSearches.map { Refreshed(name: $0.name, result: .failure($0.error)) }
        results += selection.left.map { Refreshed(name: $0.name, result: .success(.leftCatalog(table: $0.table, search: $0.search))) }
        try record(results, datasets: selection.datasets, previous: previous, at: lockPath) { dataset in try database(for: dataset).loaded }
        return results
    }

    private func refresh(_ dataset: Dataset, force: Bool, database: ProjectDatabaseConnection,
                         environment: [String: String]) throws -> Refreshed.Outcome {
        let loader = DatasetLoader(destination: database.destination, http: try dataset.connection.http(environment: environment),
                                   retry: dataset.connection.retry(environment: environment))
        var spec = dataset.spec
        spec.force = spec.force || force
        // Kept by sync (`incremental`, `incremental-above`); loaded whole the first time, or
        // when the sync cannot be done.
        if spec.incremental || spec.incrementalAbove != nil,
           let table = try spec.tableName ?? spec.reference(datasetsDirectories: []).datasetID.map(LoadPlan.tableName(forDatasetID:)),
           spec.syncs(tableRows: try database.loaded.entry(for: table, withDescription: false)?.rowCount) {
            do {
                return .synced(try loader.sync(spec))
            } catch where LoadSpec.reloadsWhole(afterSyncFailure: error) {}
        }
        let bundled = environment["SOCLOAD_DATASETS"].flatMap { $0.isEmpty ? nil : [$0] } ?? ["Datasets"]
        return .loaded(try loader.load(spec, datasetsDirectories: bundled))
    }

    /// `socload.lock`: each dataset that succeeded as the database holds it now; the others as
    /// they were; datasets no longer in the project gone (a search's stay while it is an entry).
    func record(_ results: [Refreshed], datasets: [Dataset], previous: SocloadLockFile, at lockPath: String,
                database: (Dataset) throws -> any LoadedDatabase) throws {
        var next = previous
        next.datasets = previous.datasets.filter { name, entry in
            self.datasets.contains { $0.name == name } || searches.contains { $0.name == entry.search }
        }
        for result in results {
            let table: String
            let unchanged: Bool
            switch result.result {
            case .success(.loaded(let summary)): (table, unchanged) = (summary.tableName, summary.isUpToDate)
            case .success(.synced(let summary)): (table, unchanged) = (summary.tableName, false)
            default: continue
            }
            guard let dataset = datasets.first(where: { $0.name == result.name }) else { continue }
            var entry = try SocloadLockFile.entry(for: table, in: database(dataset), previous: previous.datasets[result.name],
                                                  unchanged: unchanged)
            entry?.search = dataset.search ?? previous.datasets[result.name]?.search
            next.datasets[result.name] = entry
        }
        if next != previous || !FileManager.default.fileExists(atPath: lockPath) || SocloadLockFile.hasJournal(lock: lockPath) {
            try next.write(to: lockPath)
        }
    }
}

/// The project's database, opened for a refresh from Swift: PostgreSQL for a `postgresql://`
/// URL (in the connection's schema), else a SQLite file (a GeoPackage when asked or named `.gpkg`).
struct ProjectDatabaseConnection {
    let destination: any LoadDestination
    let loaded: any LoadedDatabase
    let close: () -> Void

    init(location: String, connection: Project.Connection) throws {
        if let connectionString = PostgreSQLConnectionString(location) {
            let database = try PostgreSQLConnection(connectionString)
            let schema = connection.schema ?? "public"
            destination = PostgreSQLDestination(connection: database, schema: schema)
            loaded = PostgreSQLDatabase(connection: database, schema: schema)
            close = {}
        } else {
            let queue = try DatabaseQueue(path: location)
            destination = SQLiteDestination(queue: queue, geoPackage: connection.geoPackage || location.lowercased().hasSuffix(".gpkg"))
            loaded = SQLiteLoadedDatabase(queue: queue)
            close = { queue.close() }
        }
    }
}
