/// What the user asked to change in the plan the metadata gives: the table's name, the system
/// columns, column types (`--type`) and extra indexes (`--index`).
public struct PlanOptions: Sendable, Codable, Equatable {
    public var tableName: String
    /// Also keep `_sid`, `_row_id`, `_position`, `_created_meta`, `_updated_meta`, `_meta`.
    public var includeSystemColumns: Bool
    /// Field name (or, for system columns, column name) → the type to load it as. A compound
    /// field (location, url, phone, point) given a type becomes one column of that type.
    public var typeOverrides: [String: LogicalType]
    /// Column lists, one index each, built after the rows are in.
    public var indexes: [[String]]
    /// The column to distribute the table by (`--distribute-by`), if any.
    public var distributeBy: String?
    /// The table's key, one column or a compound (`--pk`); nil: the row identifier `_id`.
    public var primaryKey: [String]?
    /// Columns to extract into lookup tables (`--extract`), in order.
    public var extractions: [Extraction]
    /// `--keep-changes N`: the change log keeps the row changes of the table's last N refreshes
    /// (nil: `RowChangeLog.defaultKeptRefreshes`). Kept by later refreshes.
    public var keptChangeRefreshes: Int?
    /// `--history`: every version of every row is kept in `T_history` (`HistorySQL`). Kept by
    /// later refreshes.
    public var keepsHistory: Bool?
    /// `--geometry COLUMN`: the place a GeoPackage keeps as the table's geometry. Kept by later
    /// refreshes.
    public var geometryColumn: String?
    /// `--fts COLUMNS`: the columns of a full-text index (`PlanFullText`). Kept by later refreshes.
    public var fullTextColumns: [String]?

    public init(tableName: String, includeSystemColumns: Bool = false, typeOverrides: [String: LogicalType] = [:],
                indexes: [[String]] = [], distributeBy: String? = nil, primaryKey: [String]? = nil,
                extractions: [Extraction] = []) {
        self.extractions = extractions
        self.distributeBy = distributeBy
        self.primaryKey = primaryKey
        self.tableName = tableName
        self.includeSystemColumns = includeSystemColumns
        self.typeOverrides = typeOverrides
        self.indexes = indexes
    }

    /// Reads options recorded by older socloads too, which had no extractions.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tableName = try container.decode(String.self, forKey: .tableName)
        includeSystemColumns = try container.decode(Bool.self, forKey: .includeSystemColumns)
        typeOverrides = try container.decode([String: LogicalType].self, forKey: .typeOverrides)
        indexes = try container.decode([[String]].self, forKey: .indexes)
        distributeBy = try container.decodeIfPresent(String.self, forKey: .distributeBy)
        primaryKey = try container.decodeIfPresent([String].self, forKey: .primaryKey)
        extractions = try container.decodeIfPresent([Extraction].self, forKey: .extractions) ?? []
        keptChangeRefreshes = try container.decodeIfPresent(Int.self, forKey: .keptChangeRefreshes)
        keepsHistory = try container.decodeIfPresent(Bool.self, forKey: .keepsHistory)
        geometryColumn = try container.decodeIfPresent(String.self, forKey: .geometryColumn)
        fullTextColumns = try container.decodeIfPresent([String].self, forKey: .fullTextColumns)
    }
}

/// A plan option that does not fit the dataset.
public struct PlanError: CategorizedError, Equatable {
    public let description: String
    public var kind: FailureKind { .usage }

    package init(_ description: String) {
        self.description = description
    }
}
