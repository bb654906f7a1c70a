import SocloadCore
import SocloadProject
import SocloadSocrata

/// `refresh --locked`: every dataset brought to exactly the version `socload.lock` records,
/// from the portal while it still serves that version, else from the download cache. What
/// cannot be satisfied (the portal moved on and no copy is kept, the schema a load would make
/// changed, a dataset the lock lacks) is found from metadata alone before anything loads: the
/// command then fails naming each difference, exit 65, and nothing changes.
struct LockedRefresh {
    /// How one dataset comes to its locked version.
    enum Way {
        /// The database holds it already: nothing to load, no request made.
        case held
        /// The portal (or the file) serves that version now.
        case fromSource
        /// From the cache's copy (an export, or a query API's pages), and the syncs kept with it
        /// (`DownloadCache.syncs`: a version a sync brought up to date), replayed over it.
        case fromCache(DownloadCache.Version, syncs: [String])
        /// Not to be had, for this dataset alone (the others load): why.
        case unavailable(String)
    }

    let project: Project
    let lock: SocloadLockFile
    let cache: DownloadCache?

    /// The way for each dataset, or the differences that stop the refresh.
    func ways(for datasets: [Project.Dataset], fetches: [DatasetFetch], database: (any LoadedDatabase)?,
              context: CommandContext) -> (ways: [Way?], differences: [String]) {
        var ways: [Way?] = []
        var differences: [String] = []
        for (dataset, fetch) in zip(datasets, fetches) {
            do {
                ways.append(try way(for: dataset, fetch: fetch, database: database, context: context))
            } catch let difference as Difference {
                ways.append(nil)
                differences.append("\(dataset.name): \(difference.text)")
            } catch {
                ways.append(nil)
                differences.append("\(dataset.name): " + SocloadTool.oneLine(DatasetBatch.describe(error).0))
            }
        }
        return (ways, differences)
    }

    private struct Difference: Error { let text: String }

    private func way(for dataset: Project.Dataset, fetch: DatasetFetch, database: (any LoadedDatabase)?,
                     context: CommandContext) throws -> Way {
        guard let locked = lock.datasets[dataset.name] else {
            throw Difference(text: "not in the lock file (a refresh without --locked adds it)")
        }
        guard let version = locked.rowsUpdatedAt else {
            // No version stamp to ask the source for: the lock holds it by its rows' content hash.
            if let entry = try database?.entry(for: locked.table, withDescription: false), entry.tableName == locked.table, entry.rowCount == locked.rowCount,
               try database?.planTable(named: entry.tableName).map(TableContentHash.schema) == locked.schemaHash,
               let database, try TableContentHash.rows(of: entry.tableName, in: database) == locked.contentHash {
                return .held
            }
            return .unavailable("its source states no rowsUpdatedAt, so the lock holds it by its content hash \(locked.contentHash), "
                                + "which the database's copy does not have: refresh it without --locked to take the source as it is now")
        }
        if let entry = try database?.entry(for: locked.table, withDescription: false), entry.tableName == locked.table,
           entry.rowsUpdatedAt == version, entry.rowCount == locked.rowCount,
           try database?.planTable(named: entry.tableName).map(TableContentHash.schema) == locked.schemaHash {
            return .held
        }
        let request = try fetch.platformRequest() == nil ? try fetch.request(context: context) : nil
        let planned: DatasetLoader.PlannedLoad
        do {
            planned = try fetch.plannedLoad(context: context).planned
        } catch {
            // The portal no longer has it (404, 410): the cache's copy is what it is kept for.
            guard DatasetWatcher.goneAnswer(in: error) != nil, let cache, let datasetID = request?.reference.datasetID ?? locked.datasetID
            else { throw error }
            do {
                if let copy = try cache.checkedVersion(datasetID: datasetID, rowsUpdatedAt: version) {
                    return .fromCache(copy, syncs: cache.syncs(datasetID: datasetID, rowsUpdatedAt: version))
                }
            } catch let damaged as DamagedVersion {
                throw Difference(text: damaged.description)
            }
            throw error
        }
        let (plan, current) = (planned.plan, planned.rowsUpdatedAt)
        guard current == version else {
            let datasetID = request?.reference.datasetID ?? locked.datasetID
            do {
                if let cache, let datasetID, let copy = try cache.checkedVersion(datasetID: datasetID, rowsUpdatedAt: version) {
                    return .fromCache(copy, syncs: cache.syncs(datasetID: datasetID, rowsUpdatedAt: version))
                }
            } catch let damaged as DamagedVersion {
                throw Difference(text: damaged.description)
            }
            throw Difference(text: "the source serves rowsUpdatedAt \(current ?? "(none)"), the lock \(version), and "
                             + (cache.map { "\($0.directory) keeps no copy of it" } ?? "no cache keeps old versions (\"cache\": DIR)"))
        }
        let schema = TableContentHash.schema(of: plan.mainTable)
        guard schema == locked.schemaHash else {
            throw Difference(text: "the schema changed: a load now makes columns or a key of schema hash \(schema), "
                             + "the lock \(locked.schemaHash)")
        }
        return .fromSource
    }

    /// Loads `fetch`'s dataset (a forced fetch: the version differs from the database's) at
    /// the lock's version by `way`, refused inside the load when the source turns out to be
    /// another version after all (the portal moved on meanwhile).
    func load(_ dataset: Project.Dataset, fetch: DatasetFetch, way: Way, context: CommandContext,
              job: DatasetJob) throws -> DatasetOutcome {
        guard let locked = lock.datasets[dataset.name] else { throw CommandFailure("not locked", exitCode: .dataError) }
        if case .held = way {
            return DatasetOutcome(table: locked.table, result: "at the locked version, \(NumberText.counted(locked.rowCount, "row"))",
                                  wroteTable: false, status: "up_to_date")
        }
        if case .unavailable(let reason) = way { throw CommandFailure(reason, exitCode: .dataError) }
        return try fetch.run(context: context, job: job) { request in
            request.expectedRowsUpdatedAt = locked.rowsUpdatedAt
            if case .fromCache(_, let syncs) = way { request.replayedSyncs = syncs }
            switch way {
            case .fromCache(.export(let path), _):
                var headers: [String: String] = [:]
                if let etag = locked.etag { headers["etag"] = etag }
                if let lastModified = locked.lastModified { headers["last-modified"] = lastModified }
                request.prefetched = .cachedCopy(path: path, head: HTTPResponseHead(statusCode: 200, headers: headers))
            case .fromCache(.pages(let directory), _):
                request.prefetched = .cachedPages(directory: directory)
            default: break
            }
        }
    }
}
