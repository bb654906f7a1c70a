import SocloadCore

/// How a load shapes and keeps its table, whatever the source: the options `fetch` and `load`
/// share (`--type`, `--pk`, `--index`, `--fts`, `--extract`, `--distribute-by`, `--geometry`,
/// `--on-schema-change`, `--keep-changes`, `--history`, `--strict`), in one value that the command
/// line, a project file and Swift code fill the same way.
///
///     var options = TableOptions()
///     options.primaryKey = ["case_number"]
///     options.indexes = [["agency"]]
///     var spec = LoadSpec(document: "committees.json")
///     spec.tableOptions = options
public struct TableOptions: Codable, Sendable, Equatable {
    /// Field name → the logical type to load it as, over the described or inferred one (`--type`).
    public var typeOverrides: [String: LogicalType] = [:]
    /// The table's key, one column or a compound (`--pk`). A refresh keeps the key of the table
    /// it replaces unless this says otherwise; sync and upsert go by it.
    public var primaryKey: [String]?
    /// Extra indexes, one column list each (`--index`).
    public var indexes: [[String]] = []
    /// The columns of a full-text index (`--fts`, `PlanFullText`; kept on refresh).
    public var fullTextColumns: [String]?
    /// Columns to extract into lookup tables (`--extract`). A refresh also applies the
    /// extractions of the table it replaces.
    public var extractions: [Extraction] = []
    /// Distribute the table by this column (Citus; `--distribute-by`): its child and glue tables
    /// go with it. A refresh keeps the distribution of the table it replaces.
    public var distributeBy: String?
    /// `--geometry COLUMN`: the place a GeoPackage keeps as the table's geometry.
    public var geometryColumn: String?
    /// What a refresh does when the table's shape changed: `warn` (take the new shape, say how),
    /// `fail` (change nothing, exit 65) or `evolve` (keep the table's columns). See `SchemaChange`.
    public var onSchemaChange = SchemaChangePolicy.warn
    /// How many refreshes' row changes the change log keeps for the table (`--keep-changes`;
    /// nil: as the plan says, by default `RowChangeLog.defaultKeptRefreshes`).
    public var keptChangeRefreshes: Int?
    /// Keep every version of every row in `T_history` (`--history`; kept by later refreshes).
    public var keepsHistory = false
    /// Fail on the first cell that is not of its column's type, and on a user object that can no
    /// longer be rebuilt, instead of storing NULL or skipping it (`--strict`).
    public var strict = false

    public init() {}

    /// The plan's options for a table of this name (`includeSystemColumns`: `--system-columns`).
    public func planOptions(tableName: String, includeSystemColumns: Bool = false) -> PlanOptions {
        var options = PlanOptions(tableName: tableName, includeSystemColumns: includeSystemColumns, typeOverrides: typeOverrides,
                                  indexes: indexes, distributeBy: distributeBy, primaryKey: primaryKey, extractions: extractions)
        options.geometryColumn = geometryColumn
        options.fullTextColumns = fullTextColumns
        return options
    }
}
