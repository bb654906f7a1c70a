/// The descriptions a destination may attach to a table it makes (PostgreSQL's `COMMENT ON`):
/// the dataset's, and each column's by its name in the table.
///
/// A plan's JSON records only a digest of each text: the catalog keeps the texts once (the
/// dataset's in its `description`, the columns' in `columns_json`), so a description of many
/// megabytes is not written, bound and held three times. A plan read back from the catalog has
/// the digests and no texts until `restoringTexts(from:)` gives them back; two descriptions are
/// equal when their digests are.
public struct TableDescriptions: Codable, Sendable, Equatable {
    /// The dataset's description (nil: none, or not restored).
    public var table: String? {
        didSet { tableDigest = table.map(Self.digest(of:)) }
    }
    /// Each column's description by its name in the table (empty when not restored).
    public var columns: [String: String] {
        didSet { columnDigests = columns.mapValues(Self.digest(of:)) }
    }
    /// The digest of `table`, kept when the text is not.
    public private(set) var tableDigest: String?
    /// The digests of `columns`, kept when the texts are not.
    public private(set) var columnDigests: [String: String]

    public init(table: String? = nil, columns: [String: String] = [:]) {
        self.table = table
        self.columns = columns
        tableDigest = table.map(Self.digest(of:))
        columnDigests = columns.mapValues(Self.digest(of:))
    }

    /// The digest a text is recorded by: its MD5 (`MD5Digest`), which PostgreSQL computes too, so
    /// a table's comment is compared with the recorded one without being read back.
    public static func digest(of text: String) -> String {
        MD5Digest.hex(of: text)
    }

    /// Each plan column's description: the portal's of the field it comes from, when it gave one.
    public static func columnTexts(of columns: [PlanColumn], from fields: [ColumnMetadata]) -> [String: String] {
        var described: [String: String] = [:]
        for column in columns {
            switch column.source {
            case .field(let cell), .part(let cell, _, _):
                if cell < fields.count, let text = fields[cell].description, !text.isEmpty { described[column.name] = text }
            case .rowIdentifier, .absent:
                break
            }
        }
        return described
    }

    /// These descriptions with the texts whose digests match `table` and `columns` filled in.
    public func restoringTexts(table text: String?, columns texts: [String: String]) -> TableDescriptions {
        var restored = self
        if restored.table == nil, let text, Self.digest(of: text) == tableDigest {
            restored.table = text
        }
        for (column, digest) in columnDigests where restored.columns[column] == nil {
            if let text = texts[column], Self.digest(of: text) == digest {
                restored.columns[column] = text
            }
        }
        return restored
    }

    public static func == (lhs: TableDescriptions, rhs: TableDescriptions) -> Bool {
        lhs.tableDigest == rhs.tableDigest && lhs.columnDigests == rhs.columnDigests
    }

    private enum CodingKeys: String, CodingKey {
        case table, columns
        case tableDigest = "table_digest", columnDigests = "column_digests"
    }

    /// Reads the digests, and the texts that plans recorded by an older socload held.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decodeIfPresent(String.self, forKey: .table)
        columns = try container.decodeIfPresent([String: String].self, forKey: .columns) ?? [:]
        tableDigest = try container.decodeIfPresent(String.self, forKey: .tableDigest) ?? table.map(Self.digest(of:))
        columnDigests = try container.decodeIfPresent([String: String].self, forKey: .columnDigests)
            ?? columns.mapValues(Self.digest(of:))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(tableDigest, forKey: .tableDigest)
        try container.encode(columnDigests, forKey: .columnDigests)
    }
}
