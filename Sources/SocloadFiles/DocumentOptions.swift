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

    /// The layout and format `--root`, `--lines`, `--csv`, `--tsv`, `--delimiter`, `--encoding`
    /// and `--no-header` give, as the command line and a spec's entry read them (the caller has
    /// refused the ones that clash): any CSV option makes it CSV; a layout alone makes it JSON.
    public mutating func read(root: String?, lines: Bool, csv: Bool, tsv: Bool, delimiter: String?, encoding: TextEncoding?,
                              noHeader: Bool) {
        if let root { layout = .root(root) } else if lines { layout = .lines }
        if let dialect = CSVDialect.given(csv: csv, tsv: tsv, delimiter: delimiter, encoding: encoding, noHeader: noHeader) {
            format = .csv(dialect)
        } else if root != nil || lines {
            format = .json
        }
    }

    /// `--child-key FIELD:ID` (names holding a colon in double quotes); nil when it is not that.
    public static func childKey(_ text: String) -> (field: String, id: String)? {
        var scanner = QuotedNameScanner(text, separators: [":"])
        guard let field = scanner.name(), scanner.separator() == ":", let id = scanner.name(), scanner.isAtEnd else { return nil }
        return (field, id)
    }
}

extension CSVDialect {
    /// The dialect the CSV options give; nil when none of them says the document is CSV.
    public static func given(csv: Bool, tsv: Bool, delimiter: String?, encoding: TextEncoding?, noHeader: Bool) -> CSVDialect? {
        guard csv || tsv || delimiter != nil || encoding != nil || noHeader else { return nil }
        return CSVDialect(delimiter: delimiter.flatMap(CSVDialect.delimiter(named:)) ?? (tsv ? UInt8(ascii: "\t") : nil),
                          encoding: encoding ?? .utf8, hasHeader: !noHeader)
    }
}
