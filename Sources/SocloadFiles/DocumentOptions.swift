import SocloadCore

/// How a document is read and nested, whoever asks (`socload load`'s `--csv`, `--root`,
/// `--metadata`, `--child-key`, `--glue`, `--flatten`): one value that a `LoadSpec` holds and the
/// document job reads.
public struct DocumentOptions: Sendable, Equatable {
    /// JSON or CSV (`--csv`, `--tsv`, `--delimiter`, `--encoding`, `--no-header`); nil: as the
    /// file's name says (`.csv`, `.tsv`), else as its first byte does (`[` or `{` is JSON).
    public var format: DocumentFormat?
    /// How the records are laid out (`--root KEY` names the array inside a top-level object).
    public var layout = JSONRecordReader.Layout.detect
    /// An `/api/views/ID.json` description (path or URL): the columns are typed as `fetch` types
    /// them, instead of being inferred.
    public var metadata: String?
    /// Field of arrays of objects → the field of its objects that identifies them within their
    /// parent (`--child-key K:field`): the child table's key is the parent's key and it, instead
    /// of the element's position.
    public var childKeys: [String: String] = [:]
    /// Nested arrays of references that fill many-to-many glue tables instead of child tables
    /// (`--glue K:OTHER_TABLE.OTHER_KEY[:ID_FIELD]`).
    public var glues: [GlueSpec] = []
    /// Nested objects become `parent_child` columns instead of JSON text (`--flatten`).
    public var flatten = false

    public init() {}
}
