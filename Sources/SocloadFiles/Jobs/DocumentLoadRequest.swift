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
    /// The description the records are typed by, given by the source that wrote them (a
    /// platform's metadata), instead of `--metadata` or inference.
    package var givenDescription: (any DocumentDescription)?
    /// Where the records came from, when `source` is only their spool (a platform's dataset):
    /// what the catalog records and messages name.
    package var origin: DocumentOrigin?

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
        if let origin { return origin.sourceURL }
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

/// Where a spooled document's records came from (a platform's dataset), as the catalog keeps it:
/// its URL, portal, how it was read (compared by a later refresh) and when its data last changed.
package struct DocumentOrigin: Sendable, Equatable {
    package var sourceURL: String
    package var domain: String?
    /// How the records were read (`ckan`, `arcgis`, `ods`): a refresh compares it.
    package var requestSignature: String
    /// The platform's statement of when the data last changed (its refresh signal).
    package var dataUpdatedAt: String?
    /// The platform's id of the dataset, when no description gives it (a file resource: its URL).
    package var datasetID: String?
    /// The load is a slice (`--limit`): a row count other than the platform's is no difference.
    package var isSlice = false

    package init(sourceURL: String, domain: String?, requestSignature: String, dataUpdatedAt: String?) {
        self.sourceURL = sourceURL
        self.domain = domain
        self.requestSignature = requestSignature
        self.dataUpdatedAt = dataUpdatedAt
    }
}
