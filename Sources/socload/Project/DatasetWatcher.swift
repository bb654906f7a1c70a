import Foundation
import SocloadCore
import SocloadProject
import SocloadSocrata

/// The watch of a project's datasets (`DatasetWatch`) for `status` and `refresh`: the interval
/// each is expected to change by (the entry's `"expect"`, else what the portal states, else the
/// refresh log's usual gap), judged against the portal's `rowsUpdatedAt`; and for a dataset the
/// portal no longer serves (404, 410) that was loaded before, `gone` or `moved`, its table kept.
struct DatasetWatcher {
    let context: CommandContext
    var now = Date()

    /// The interval `dataset` is expected to change by, and where it came from; the refresh log
    /// (`stamps`: the `rowsUpdatedAt` its loads recorded, read only when needed) is the last resort.
    func expectation(of dataset: Project.Dataset, stated: String?, stamps: () -> [String]) -> DatasetWatch.Expectation? {
        DatasetWatch.Expectation.first(expected: dataset.expected, stated: stated, stamps: stamps)
    }

    /// The watch of a dataset its source still serves: `portalStamp` is its `rowsUpdatedAt` now.
    /// A saved export is judged by the rowsUpdatedAt it states, as its portal's would be.
    func watch(_ dataset: Project.Dataset, portalStamp: String?, stated: String?, stamps: () -> [String]) -> DatasetWatch {
        let expected = expectation(of: dataset, stated: stated, stamps: stamps)
        return DatasetWatch.judge(expected: expected, portalRowsUpdatedAt: portalStamp.flatMap(ISO8601Timestamp.parse), now: now)
    }

    /// The answer of a portal that no longer has the dataset (`HTTP 404 Not Found`, `HTTP 410
    /// Gone`) in `error`, else nil.
    static func goneAnswer(in error: any Error) -> String? {
        if let failure = error as? LoadFailure { return goneAnswer(in: failure.underlying) }
        if case .status(let code, _, _, _)? = error as? HTTPError, code == 404 || code == 410 {
            return "HTTP \(code) \(code == 404 ? "Not Found" : "Gone")"
        }
        return nil
    }

    /// `gone` or `moved` for a dataset loaded before (`entry`) whose portal now answers
    /// `answer`; the catalog is asked for the same name and publisher under another id.
    func gone(_ dataset: Project.Dataset, answer: String, entry: CatalogEntry, stamps: () -> [String]) -> DatasetWatch {
        let expected = expectation(of: dataset, stated: entry.dictionary?.updateFrequency, stamps: stamps)
        let (candidates, trouble) = movedCandidates(of: entry, retries: dataset.connection.retries)
        var watch = DatasetWatch.gone(answer: answer, candidates: candidates, expected: expected)
        if let trouble { watch.note = (watch.note.map { $0 + "; " } ?? "") + trouble }
        return watch
    }

    /// Datasets the catalog lists under the entry's name and publisher on its portal, other than
    /// its own id; or why the catalog could not be asked.
    private func movedCandidates(of entry: CatalogEntry, retries: Int?) -> (ids: [String], trouble: String?) {
        guard let name = (entry.dictionary?.name ?? entry.name)?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            return ([], nil)
        }
        let host = entry.domain.map { URL(string: $0.contains("://") ? $0 : "https://" + $0)?.host ?? $0 }
        let catalog = context.environment["SOCLOAD_CATALOG"].flatMap { $0.isEmpty ? nil : $0 } ?? CatalogSearch.defaultCatalog
        do {
            let answer = try CatalogSearch(words: name, domain: host, limit: 20)
                .run(catalog: catalog, http: try LoadSetup.httpOptions(appToken: nil, context),
                     retry: LoadSetup.retryPolicy(retries: retries, context))
            let publisher = entry.dictionary?.attribution?.lowercased()
            let ids = answer.results.filter { result in
                result.id != entry.datasetID && result.name.trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased()
                    && (publisher == nil || result.attribution?.lowercased() == publisher)
                    && (host == nil || result.domain == nil || result.domain == host)
            }.map(\.id)
            return (ids, nil)
        } catch {
            return ([], "the catalog could not be asked for where it went: " + SocloadTool.oneLine(SocloadTool.describe(error).0))
        }
    }
}

extension DatasetWatcher {
    /// `refresh` of one dataset with its watch: the outcome of `load` and the watch its catalog
    /// entry gives after it; or, when the portal no longer has a dataset loaded before, an
    /// outcome that keeps its table (`kept`) with the watch `gone` or `moved`.
    func refreshing(_ dataset: Project.Dataset, datasetID: () -> String?, batch: BatchDatabase?,
                    load: () throws -> DatasetOutcome) throws -> DatasetOutcome {
        // The stamps the table's loads recorded (the batch's one read of the refresh log), with
        // this refresh's own, when it loaded: needed only when no interval is given or stated.
        let stamps = { (table: String, now: String?) in { (batch?.refreshStamps(of: table) ?? []) + [now].compactMap { $0 } } }
        do {
            var outcome = try load()
            // A load's entry is in its summary; a sync's is read again (its stamp moved on); else
            // the entry as the batch began.
            let synced = outcome.sync == nil ? nil : (try? batch?.reading { try $0.entry(for: outcome.table, withDescription: false) }) ?? nil
            let entry = outcome.summary?.catalogEntry ?? synced ?? batch?.entry(for: outcome.table)
            if let entry {
                outcome.watch = watch(dataset, portalStamp: entry.rowsUpdatedAt, stated: entry.dictionary?.updateFrequency,
                                      stamps: stamps(entry.tableName, outcome.wroteTable ? entry.rowsUpdatedAt : nil))
            }
            return outcome
        } catch {
            guard let answer = Self.goneAnswer(in: error), let batch,
                  let entry = Self.loadedEntry(of: dataset, datasetID: datasetID(), lookup: batch.entry(for:)) else { throw error }
            let watch = gone(dataset, answer: answer, entry: entry, stamps: stamps(entry.tableName, nil))
            var outcome = DatasetOutcome(table: entry.tableName, result: "kept as it was, \(NumberText.counted(entry.rowCount, "row"))",
                                         wroteTable: false, status: "kept")
            outcome.watch = watch
            outcome.keptRows = entry.rowCount
            return outcome
        }
    }

    /// The catalog entry of the dataset's table (its entry's "table", else its id's table), or
    /// of its dataset id: a dataset loaded before (nil: never loaded).
    static func loadedEntry(of dataset: Project.Dataset, datasetID id: String?,
                            lookup: (String) throws -> CatalogEntry?) rethrows -> CatalogEntry? {
        for key in [dataset.spec.tableName, id.map(LoadPlan.tableName(forDatasetID:)), id].compactMap({ $0 }) {
            if let entry = try lookup(key),
               id == nil || entry.datasetID == nil || entry.datasetID == id { return entry }
        }
        return nil
    }
}
