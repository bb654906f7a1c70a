import SocloadCore
import Foundation
import SocloadEngine
import SocloadTransport

/// What `socload load` loads and how: a plain JSON document (an array of objects, NDJSON, or a
/// saved SODA response) or a CSV/TSV file, from a file, a URL or standard input (`-`), into one
/// table.
package struct DocumentLoadRequest: TableOptionsCarrying, Sendable {
    /// A path, an `http(s)://` URL, or `-` for standard input.
    package var source: String
    /// How the table is shaped and kept (`--type`, `--pk`, `--index`, `--fts`, `--extract`,
    /// `--distribute-by`, `--geometry`, `--on-schema-change`, `--keep-changes`, `--history`,
    /// `--strict`); each is also a property of the request (`TableOptionsCarrying`).
    package var tableOptions = TableOptions()
    /// The table; by default the source's base name (`committees.json` → `committees`).
    package var tableName: String?
    /// JSON or CSV (`--csv`, `--tsv`, `--delimiter`, `--encoding`, `--no-header`); nil: as the
    /// file's name says (`.csv`, `.tsv`), else as its first byte does (`[` or `{` is JSON).
    package var format: DocumentFormat?
    /// How the records are laid out (`--root KEY` names the array inside a top-level object).
    package var layout = JSONRecordReader.Layout.detect
    /// An `/api/views/ID.json` description (path or URL): the columns are typed as `fetch` types
    /// them, instead of being inferred.
    package var metadata: String?
    /// Field of arrays of objects → the field of its objects that identifies them within their
    /// parent (`--child-key K:field`): the child table's key is the parent's key and it, instead
    /// of the element's position.
    package var childKeys: [String: String] = [:]
    /// Nested arrays of references that fill many-to-many glue tables instead of child tables
    /// (`--glue K:OTHER_TABLE.OTHER_KEY[:ID_FIELD]`).
    package var glues: [GlueSpec] = []
    /// Replace the table (the default), or add the document's rows to the table socload loaded
    /// before (`--mode append|upsert`; a table that does not exist yet is made as for replace).
    package var mode = DocumentLoadMode.replace
    /// Nested objects become `parent_child` columns instead of JSON text (`--flatten`).
    package var flatten = false

    package init(source: String, tableName: String? = nil) {
        self.source = source
        self.tableName = tableName
    }

    /// The table name: `--table`, else the 4x4 id anywhere in the source's file name (its `-` as
    /// `_`, as `fetch` names it), else the file name up to its first dot; standard input has no name.
    package func targetTable() throws -> String {
        if let tableName { return tableName }
        guard source != FileByteSource.standardInput else {
            throw PlanError("standard input has no name to call the table by: pass --table NAME")
        }
        let path = DocumentSpool.isURL(source) ? (URLComponents(string: source)?.path ?? source) : source
        let name = URL(fileURLWithPath: path).lastPathComponent
        if let id = DatasetID.inFileName(name) { return LoadPlan.tableName(forDatasetID: id) }
        let base = String(name.split(separator: ".").first ?? "")
        guard !base.isEmpty else { throw PlanError("\(source) has no file name to call the table by: pass --table NAME") }
        return base
    }

    /// The source as it may be shown and stored: a URL without user name or password.
    var displaySource: String {
        if source == FileByteSource.standardInput { return "standard input" }
        return DocumentSpool.isURL(source) ? CredentialRedaction.withoutCredentials(source) : source
    }
}

extension DocumentRecordSource {
    /// How `request`'s document is read; `columns`: its description's, with `--metadata`.
    init(_ request: DocumentLoadRequest, path: String, columns: [ColumnMetadata]?) throws {
        try self.init(source: request.source, format: request.format, layout: request.layout, path: path,
                      metadata: request.metadata, columns: columns)
    }
}
