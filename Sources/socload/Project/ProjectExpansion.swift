import SocloadCore
import SocloadSocrata

/// The datasets of a project as a command works on them: the entries that name one dataset,
/// then what each catalog search lists now, or, `fromLock` (`--locked`), what the lock records
/// for it. `refresh NAME` names a dataset (by name, table, id, URL or file) or a search.
struct ProjectExpansion {
    var datasets: [ProjectFile.Dataset]
    /// Searches whose catalog could not be asked: their datasets are left as they are.
    var failedSearches: [(name: String, error: any Error)] = []
    /// Datasets a search loaded before (the lock says so) that it no longer lists.
    var left: [(name: String, table: String, search: String)] = []

    init(_ project: ProjectFile, names: [String], lock: SocloadLockFile, fromLock: Bool, context: CommandContext,
         command: CommandSpec) throws {
        let known = project.datasets.map(\.name) + project.searches.map(\.name)
        let unmatched = names.filter { name in
            !project.datasets.contains { $0.isCalled(name) } && !project.searches.contains { $0.name == name }
        }
        if !unmatched.isEmpty, project.searches.isEmpty {
            throw UsageError("\(project.path) has no dataset named '\(unmatched[0])' (it has: \(known.joined(separator: ", ")))",
                             command: command)
        }
        datasets = names.isEmpty ? project.datasets : project.datasets.filter { dataset in names.contains { dataset.isCalled($0) } }
        let http = LoadSetup.httpOptions(appToken: nil, context)
        let retry = LoadSetup.retryPolicy(retries: nil, context)
        for search in project.searches {
            let whole = names.isEmpty || names.contains(search.name)
            guard whole || !unmatched.isEmpty else { continue }
            let found: [ProjectFile.Dataset]
            do {
                found = fromLock ? search.lockedDatasets(lock) : try search.expand(http: http, retry: retry, context: context)
            } catch {
                if whole { failedSearches.append((search.name, error)) }
                continue
            }
            let fresh = found.filter { dataset in !datasets.contains { $0.isCalled(dataset.name) } }
            datasets += whole ? fresh : fresh.filter { dataset in unmatched.contains { dataset.isCalled($0) } }
            guard whole, !fromLock else { continue }
            for (name, entry) in lock.datasets.sorted(by: { $0.key < $1.key })
            where entry.search == search.name && !found.contains(where: { $0.name == name }) {
                left.append((name, entry.table, search.name))
            }
        }
        let missing = unmatched.filter { name in !datasets.contains { $0.isCalled(name) } }
        if let name = missing.first, failedSearches.isEmpty {
            throw UsageError("\(project.path) has no dataset named '\(name)' (it has: \(known.joined(separator: ", ")), "
                             + "and what its searches find)", command: command)
        }
    }

    /// The batch entries that stand for the failed searches and the datasets that left their
    /// catalog (reported in the closing table and `--json`, nothing loaded).
    var reportedEntries: [DatasetBatch.Entry] {
        failedSearches.map { search in
            DatasetBatch.Entry(name: search.name) { _ in throw search.error }
        } + left.map { gone in
            DatasetBatch.Entry(name: gone.name) { _ in
                DatasetOutcome(table: gone.table, result: "no longer listed by search '\(gone.search)': kept as it was "
                               + "(socload drop \(gone.table) removes it)", wroteTable: false, status: "left_catalog")
            }
        }
    }
}
