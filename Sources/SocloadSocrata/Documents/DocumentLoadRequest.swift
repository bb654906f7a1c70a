import SocloadCore
import Foundation

/// What `socload load` loads and how: a plain JSON document (an array of objects, NDJSON, or a
/// saved SODA response) or a CSV/TSV file, from a file, a URL or standard input (`-`), into one
/// table.
public struct DocumentLoadRequest: Sendable {
    /// A path, an `http(s)://` URL, or `-` for standard input.
    public var source: String
    /// The table; by default the source's base name (`committees.json` → `committees`).
    public var tableName: String?
    /// JSON or CSV (`--csv`, `--tsv`, `--delimiter`, `--encoding`, `--no-header`); nil: as the
    /// file's name says (`.csv`, `.tsv`), else as its first byte does (`[` or `{` is JSON).
    public var format: DocumentFormat?
    /// How the records are laid out (`--root KEY` names the array inside a top-level object).
    public var layout = JSONRecordReader.Layout.detect
    /// An `/api/views/ID.json` description (path or URL): the columns are typed as `fetch` types
    /// them, instead of being inferred.
    public var metadata: String?
    /// Field name → the type to load it as (`--type`), over the inferred or described one.
    public var typeOverrides: [String: LogicalType] = [:]
    /// The table's key (`--pk`); a document whose records carry `:id` is keyed by it as `_id`.
    public var primaryKey: [String]?
    /// Distribute the table by this column (Citus; `load --distribute-by`): its child and glue
    /// tables go with it (`LoadPlan.distributeNestedTables`).
    public var distributeBy: String?
    /// `--geometry COLUMN`: the place a GeoPackage keeps as the table's geometry.
    public var geometryColumn: String?
    /// Extra indexes, one column list each (`--index`).
    public var indexes: [[String]] = []
    /// The columns of a full-text index (`--fts`, `PlanFullText`; kept on refresh).
    public var fullTextColumns: [String]?
    /// Columns to extract into lookup tables (`--extract`).
    public var extractions: [Extraction] = []
    /// Field of arrays of objects → the field of its objects that identifies them within their
    /// parent (`--child-key K:field`): the child table's key is the parent's key and it, instead
    /// of the element's position.
    public var childKeys: [String: String] = [:]
    /// Nested arrays of references that fill many-to-many glue tables instead of child tables
    /// (`--glue K:OTHER_TABLE.OTHER_KEY[:ID_FIELD]`).
    public var glues: [GlueSpec] = []
    /// Replace the table (the default), or add the document's rows to the table socload loaded
    /// before (`--mode append|upsert`; a table that does not exist yet is made as for replace).
    public var mode = DocumentLoadMode.replace
    /// What a reload does when the table's shape changed (`--on-schema-change`): without portal
    /// metadata a renamed field is a removal and an addition. An append or upsert never takes
    /// a new shape: `warn` is `fail` there, and `evolve` adds the new columns.
    public var onSchemaChange = SchemaChangePolicy.warn
    /// How many refreshes' row changes the change log keeps for the table (`--keep-changes`;
    /// nil: as the plan says, by default `RowChangeLog.defaultKeptRefreshes`).
    public var keptChangeRefreshes: Int?
    /// Keep every version of every row in `T_history` (`--history`; kept by later refreshes).
    public var keepsHistory = false
    /// Nested objects become `parent_child` columns instead of JSON text (`--flatten`).
    public var flatten = false
    /// Fail on the first cell that is not of its column's type instead of storing NULL.
    public var strict = false

    public init(source: String, tableName: String? = nil) {
        self.source = source
        self.tableName = tableName
    }

    /// The table name: `--table`, else the 4x4 id anywhere in the source's file name (its `-` as
    /// `_`, as `fetch` names it), else the file name up to its first dot; standard input has no name.
    public func targetTable() throws -> String {
        if let tableName { return tableName }
        guard source != FileByteSource.standardInput else {
            throw PlanError("standard input has no name to call the table by: pass --table NAME")
        }
        let path = DocumentSpool.isURL(source) ? (URLComponents(string: source)?.path ?? source) : source
        let name = URL(fileURLWithPath: path).lastPathComponent
        if let id = DatasetReference.datasetID(inFileName: name) { return LoadPlan.tableName(forDatasetID: id) }
        let base = String(name.split(separator: ".").first ?? "")
        guard !base.isEmpty else { throw PlanError("\(source) has no file name to call the table by: pass --table NAME") }
        return base
    }

    /// The source as it may be shown and stored: a URL without user name or password.
    var displaySource: String {
        if source == FileByteSource.standardInput { return "standard input" }
        return DocumentSpool.isURL(source) ? DatasetReference.withoutCredentials(source) : source
    }
}

extension DocumentRecordSource {
    /// How `request`'s document is read; `columns`: its description's, with `--metadata`.
    init(_ request: DocumentLoadRequest, path: String, columns: [ColumnMetadata]?) throws {
        try self.init(source: request.source, format: request.format, layout: request.layout, path: path,
                      metadata: request.metadata, columns: columns)
    }
}
