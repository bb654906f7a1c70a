import SocloadProject
import SocloadSocrata

extension ProjectSelection {
    /// The datasets a command works on (`refresh`, `status`, `verify --locked`), its catalogs
    /// asked with the environment's credentials and retry delay; a name the project lacks is a
    /// usage error of `command`.
    static func of(_ project: Project, names: [String], lock: SocloadLockFile, fromLock: Bool, context: CommandContext,
                   command: CommandSpec) throws -> ProjectSelection {
        do {
            return try ProjectSelection(project, names: names, lock: lock, fromLock: fromLock,
                                        http: try LoadSetup.httpOptions(appToken: nil, context),
                                        retry: LoadSetup.retryPolicy(retries: nil, context), environment: context.environment)
        } catch let error as UnknownDatasetName {
            throw UsageError(error.description, command: command)
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
