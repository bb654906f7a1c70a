import Foundation
import SocloadCore

/// What to load and how, in one value that the command line, a project file and Swift code
/// fill the same way: the source, the table, how it is shaped and kept (`TableOptions`), the
/// mode, and the options of the source (the portal's API and SoQL, or how a document is read).
///
///     var spec = LoadSpec(dataset: "n5m4-mism", domain: "data.example.org")
///     spec.tableOptions.indexes = [["agency"]]
///     spec.query.where = "agency = 'Department of State'"
///
/// Its `Codable` form is a project file's dataset entry (`socload.json`) less what the project
/// keeps (the entry's name and how its portal and database are reached): the keys are the long
/// option names of `socload fetch` and `socload load` without the dashes, so
/// `{"id": "n5m4-mism", "index": ["agency"], "where": "..."}` decodes into the spec above. Each
/// key is checked on its own, and a wrong one is a `LoadSpecError` naming it.
public struct LoadSpec: TableOptionsCarrying, Sendable, Equatable {
    /// Where the rows come from.
    public enum Source: Sendable, Equatable {
        /// A Socrata dataset, as `fetch` takes it: an id (`n5m4-mism`, fetched from `domain`), a
        /// portal URL, or a saved `rows.json` file.
        case dataset(String)
        /// A JSON/NDJSON document or a CSV/TSV file, as `load` takes it: a path, a URL or `-`.
        case document(String)
    }

    public var source: Source
    /// The table; by default named after the dataset id or the document's file name.
    public var tableName: String?
    /// How the table is shaped and kept (`--type`, `--pk`, `--index`, `--extract`, ...).
    public var tableOptions = TableOptions()
    /// A document's rows replace the table (the default) or go into it (`--mode append|upsert`).
    /// An append or upsert keeps the table's shape unless `onSchemaChange` is `.evolve` (`.warn`
    /// means `.fail` there; a document spec decoded with a mode and no policy says `.fail`).
    public var mode = DocumentLoadMode.replace
    /// Sync a dataset's table loaded before instead of reloading it (`--incremental`).
    public var incremental = false
    /// Sync instead of reloading once the table holds more than this many rows
    /// (`--incremental-above`): big datasets kept by sync, small ones reloaded whole.
    public var incrementalAbove: Int?

    // A dataset's options.
    /// The portal a dataset id is fetched from (`--domain`; also `http://host:port`).
    public var domain: String?
    /// Where a bundled copy of a dataset id is looked for (`--datasets`).
    public var datasetsDirectory: String?
    /// Load only the first N rows (`--limit`).
    public var limit: Int?
    /// Refuse a dataset of more than N rows, changing nothing (`--max-rows`).
    public var maxRows: Int?
    /// Also keep Socrata's system columns (`--system-columns`).
    public var includeSystemColumns = false
    /// The platform a URL is a dataset of (`--platform`); nil: the one its form says (a CKAN,
    /// ArcGIS or OpenDataSoft URL), else Socrata.
    public var platform: DataPlatform?
    /// The API the rows are read through (`--api`).
    public var api = DatasetAPI.auto
    /// SoQL pushed down to the portal (`--where`, `--select`, `--order`).
    public var query = SoQLQuery()
    /// Rows per SODA page (`--page-size`).
    public var pageSize = LoadSpec.defaultPageSize
    /// The page size when none is given: the one definition `fetch`, `sync` and their help use.
    public static let defaultPageSize = 50_000
    /// Reload even when the portal says nothing changed (`--force`).
    public var force = false
    /// Keep a gzip copy of every rows.json downloaded in this folder (`--cache`).
    public var cache: String?
    /// The versions of the dataset the cache keeps (`--keep-versions`); nil: every version.
    public var keepVersions: Int?

    /// A document's options: how it is read and nested (`--csv`, `--root`, `--metadata`,
    /// `--child-key`, `--glue`, `--flatten`).
    public var document = DocumentOptions()

    public init(source: Source, tableName: String? = nil) {
        self.source = source
        self.tableName = tableName
    }

    /// A dataset: an id on `domain` (nil: the bundled copy), a portal URL, or a rows.json file.
    public init(dataset: String, domain: String? = nil, tableName: String? = nil) {
        self.init(source: .dataset(dataset), tableName: tableName)
        self.domain = domain
    }

    /// A document: a path, an `http(s)://` URL, or `-` for standard input.
    public init(document: String, tableName: String? = nil) {
        self.init(source: .document(document), tableName: tableName)
    }

    /// The options that clash, whatever wrote them (one message, as the command line says it).
    public func validate() throws(LoadSpecError) {
        if let tableName, tableName.isEmpty { throw LoadSpecError(key: "table", problem: "needs a name") }
        switch source {
        case .dataset:
            if incremental || incrementalAbove != nil, !tableOptions.extractions.isEmpty {
                throw LoadSpecError(key: nil, problem: "--extract shapes a load, and --incremental only syncs rows: run "
                                    + "socload extract TABLE COLUMNS to add a lookup to a table you sync")
            }
            if mode != .replace {
                throw LoadSpecError(key: "mode", problem: "is for documents (socload load); a dataset is replaced, or synced "
                                    + "with --incremental")
            }
        case .document:
            if case .csv = document.format, document.layout != .detect || document.flatten {
                throw LoadSpecError(key: nil, problem: "--\(document.layout == .detect ? "flatten" : document.layout == .lines ? "lines" : "root") "
                                    + "is for JSON documents, not CSV")
            }
        }
    }
}

/// A wrong key or value of a `LoadSpec` (a project entry, a decoded spec), or options that
/// clash: `key "page-size" takes a number above 0, not '0'`.
public struct LoadSpecError: Error, LocalizedError, Sendable, Equatable, CustomStringConvertible {
    /// The entry key at fault; nil when options clash.
    public let key: String?
    public let problem: String

    public init(key: String?, problem: String) {
        self.key = key
        self.problem = problem
    }

    public var description: String { key.map { "key \"\($0)\" \(problem)" } ?? problem }
    public var errorDescription: String? { description }
}
