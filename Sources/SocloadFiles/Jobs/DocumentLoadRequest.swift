import SocloadCore
import Foundation
import SocloadEngine
import SocloadTransport

/// A load of a document as the document job runs it: what `socload load` (or a `LoadSpec`)
/// asked for. The table options are properties of the request too (`request.primaryKey`).
package struct DocumentLoadRequest: TableOptionsCarrying, Sendable {
    /// A path, an `http(s)://` URL, or `-` for standard input.
    package var source: String
    /// The table; by default the source's base name (`committees.json` → `committees`).
    package var tableName: String?
    package var tableOptions = TableOptions()
    package var document = DocumentOptions()
    /// Replace the table (the default), or add the document's rows to the table socload loaded
    /// before (`--mode append|upsert`; a table that does not exist yet is made as for replace).
    package var mode = DocumentLoadMode.replace

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
        try self.init(source: request.source, format: request.document.format, layout: request.document.layout, path: path,
                      metadata: request.document.metadata, columns: columns)
    }
}
