/// What a load writes, described without SQL: tables of typed columns, their keys and indexes,
/// and where each column's value comes from in a source row. The Socrata side builds it
/// (`LoadPlan.socrata(view:options:)`); each destination turns it into its own DDL and bulk path.
///
///     let plan = try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "n5m4_mism"))
///     print(plan.tables[0].columns.map(\.name))
public struct LoadPlan: Sendable, Codable, Equatable {
    /// The tables the load writes; the first is the dataset's own table.
    public var tables: [PlanTable]
    /// The fields of a source row, in cell order: rows.json arrays are read by position, SODA
    /// objects by field name (a missing field is null).
    public var sourceFields: [String]
    /// The options the plan was made with, so a sync can make it again from fresh metadata.
    public var options: PlanOptions?

    public init(tables: [PlanTable], sourceFields: [String], options: PlanOptions? = nil) {
        self.tables = tables
        self.sourceFields = sourceFields
        self.options = options
    }

    /// The dataset's table.
    public var mainTable: PlanTable { tables[0] }
}

/// One table of a plan.
public struct PlanTable: Sendable, Codable, Equatable {
    public var name: String
    public var columns: [PlanColumn]
    /// The key: one column or a compound of columns (empty: no key).
    public var primaryKey: [String]
    /// Other column sets whose values are unique together.
    public var uniqueKeys: [[String]]
    public var foreignKeys: [PlanForeignKey]
    /// Indexes socload builds after the rows are in (`--index`).
    public var indexes: [PlanIndex]
    /// The column whose value spreads the rows over several servers (`--distribute-by`; Citus
    /// on PostgreSQL); nil for a table kept whole. It is always part of the key, since a
    /// distributed table's unique keys must include it.
    public var distributionColumn: String?
    /// The table whose shards this one's go with (Citus `colocate_with`): a child or glue
    /// table's parent, so that joins between them stay on one server. nil: a group of its own.
    public var colocatedWith: String?
    /// The place a GeoPackage keeps as the table's one geometry (`--geometry`, matched to
    /// `PlanGeometry.sourceColumn`); nil: the first (`PlanGeometry.chosen(in:)`).
    public var geometryColumn: String?
    /// Columns extracted into lookup tables: `columns` are the columns rows arrive in,
    /// `storedColumns` those the table holds, with a foreign key for each lookup.
    public var lookups: [PlanLookup]
    /// For a table whose rows are the elements of an array nested in another table's source
    /// rows (a child table, `socload load`): where they come from. nil for a table of whole rows.
    public var nesting: PlanNesting?
    /// For a many-to-many glue table: the two tables it links. Its rows are upserted, never
    /// replaced: the other side's links and attributes stay.
    public var glue: PlanGlue?
    /// What the portal says the table and its columns hold, for destinations that keep
    /// descriptions (PostgreSQL's comments). nil: nothing said.
    public var descriptions: TableDescriptions?
    /// The words `select --search` finds (`--fts`); nil: no full-text index.
    public var fullText: PlanFullText?

    public init(name: String, columns: [PlanColumn], primaryKey: [String] = [], uniqueKeys: [[String]] = [],
                foreignKeys: [PlanForeignKey] = [], indexes: [PlanIndex] = [], lookups: [PlanLookup] = []) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.uniqueKeys = uniqueKeys
        self.foreignKeys = foreignKeys
        self.indexes = indexes
        self.lookups = lookups
    }

    /// Reads plans recorded by older socloads too, which had no lookups.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        columns = try container.decode([PlanColumn].self, forKey: .columns)
        primaryKey = try container.decode([String].self, forKey: .primaryKey)
        uniqueKeys = try container.decodeIfPresent([[String]].self, forKey: .uniqueKeys) ?? []
        foreignKeys = try container.decodeIfPresent([PlanForeignKey].self, forKey: .foreignKeys) ?? []
        indexes = try container.decodeIfPresent([PlanIndex].self, forKey: .indexes) ?? []
        distributionColumn = try container.decodeIfPresent(String.self, forKey: .distributionColumn)
        colocatedWith = try container.decodeIfPresent(String.self, forKey: .colocatedWith)
        geometryColumn = try container.decodeIfPresent(String.self, forKey: .geometryColumn)
        lookups = try container.decodeIfPresent([PlanLookup].self, forKey: .lookups) ?? []
        nesting = try container.decodeIfPresent(PlanNesting.self, forKey: .nesting)
        glue = try container.decodeIfPresent(PlanGlue.self, forKey: .glue)
        descriptions = try container.decodeIfPresent(TableDescriptions.self, forKey: .descriptions)
        fullText = try container.decodeIfPresent(PlanFullText.self, forKey: .fullText)
    }

    /// The column with that name, compared as destinations compare names (case-insensitively).
    public func column(named name: String) -> PlanColumn? {
        columns.first { $0.name.lowercased() == name.lowercased() }
    }
}

/// One column: its name, its logical type and where its value comes from.
public struct PlanColumn: Sendable, Codable, Equatable {
    /// Unique in its table, case-insensitively; always quoted in SQL.
    public var name: String
    public var type: LogicalType
    public var source: ColumnSource
    /// For a `.geometry` column, the one kind of shape its values are (a Socrata `multipolygon`
    /// column's); nil: any, or not a geometry.
    public var geometryKind: Geometry.Kind?
    /// The name the column's values are fingerprinted under when a rename gave the column a new
    /// one (nil: its name), so a rename alone changes no row (`keepingFingerprintNames(of:changes:)`).
    public var fingerprintName: String?

    public init(name: String, type: LogicalType, source: ColumnSource) {
        self.name = name
        self.type = type
        self.source = source
    }
}

/// The types a plan column can have. Each destination spells them in its own dialect; the
/// converter turns a source cell into a value of the type, or into NULL (counted) when the cell
/// is not one.
public enum LogicalType: String, Sendable, Codable, CaseIterable {
    /// Text as given; numbers as their digits, arrays and objects as compact JSON.
    case text
    /// A whole number that fits in 64 bits.
    case integer
    /// A decimal number, keeping the source's digits (`$`, `,` and spaces removed).
    case decimal
    /// A binary floating-point number.
    case double
    /// true / false.
    case boolean
    /// A fixed instant, stored as ISO-8601 UTC with `Z` (Socrata `date`, `fixed_timestamp`).
    case timestamp
    /// A wall-clock time without zone, ISO-8601 as given (Socrata `calendar_date`, `floating_timestamp`).
    case floatingTimestamp = "floating_timestamp"
    /// A calendar day, `YYYY-MM-DD`.
    case date
    /// JSON text (a plain string stays itself).
    case json
    /// WKT or GeoJSON text (points, lines, polygons).
    case geometry

    /// The type named `name`: a logical type name, or one of its usual aliases (`number`,
    /// `checkbox`, `calendar_date`, `fixed_timestamp`, `int`, `real`, `bool`).
    public init?(name: String) {
        switch name.lowercased() {
        case "number", "numeric": self = .decimal
        case "int", "bigint": self = .integer
        case "real", "float": self = .double
        case "bool", "checkbox": self = .boolean
        case "calendar_date": self = .floatingTimestamp
        case "fixed_timestamp": self = .timestamp
        default:
            guard let type = LogicalType(rawValue: name.lowercased()) else { return nil }
            self = type
        }
    }

    /// How the type is named in messages about cells that are not of it.
    package func valueNoun(plural: Bool) -> String {
        let singular: String
        switch self {
        case .text, .json, .geometry: singular = "text"
        case .integer: singular = "whole number"
        case .decimal, .double: singular = "number"
        case .boolean: singular = "boolean"
        case .timestamp, .floatingTimestamp: singular = "timestamp"
        case .date: singular = "date"
        }
        return plural ? singular + "s" : "a " + singular
    }
}

/// Where a column's value comes from in a source row.
public enum ColumnSource: Sendable, Codable, Equatable {
    /// The whole value of the field at this cell position.
    case field(cell: Int)
    /// One part of a compound value (location, url, phone, point) at this cell position.
    case part(cell: Int, part: FieldPart, subColumnTypes: [String]?)
    /// The row identifier as SODA 2's `:id` gives it: the `sid` cell when it is text (new
    /// backend, `row-...`), else the GUID `id` cell (old backend).
    case rowIdentifier(sid: Int?, id: Int?)
    /// None: a column the table keeps after it went upstream (`--on-schema-change evolve`),
    /// NULL in every new row.
    case absent
}

/// The parts compound Socrata values are split into.
public enum FieldPart: String, Sendable, Codable {
    case locationAddress = "human_address", locationLatitude = "latitude", locationLongitude = "longitude"
    case url, urlDescription = "description"
    case phoneNumber = "phone_number", phoneType = "phone_type"
    case pointGeometry = "point", pointLongitude = "point_longitude", pointLatitude = "point_latitude"
}

/// A foreign key: these columns reference the key of another table of the plan (or of the database).
public struct PlanForeignKey: Sendable, Codable, Equatable {
    public var columns: [String]
    public var referencedTable: String
    public var referencedColumns: [String]

    public init(columns: [String], referencedTable: String, referencedColumns: [String]) {
        self.columns = columns
        self.referencedTable = referencedTable
        self.referencedColumns = referencedColumns
    }
}

/// An index socload builds and owns: rebuilt from the plan on every refresh.
public struct PlanIndex: Sendable, Codable, Equatable {
    public var name: String
    public var columns: [String]
    public var isUnique: Bool

    public init(name: String, columns: [String], isUnique: Bool = false) {
        self.name = name
        self.columns = columns
        self.isUnique = isUnique
    }
}
