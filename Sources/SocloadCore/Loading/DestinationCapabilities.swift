/// What a destination can do and hold, in one value: the facts a load, a plan and a command
/// adapt to, asked of the destination rather than guessed from what kind of database it is.
///
///     let capabilities = DestinationCapabilities(storableValues: .anything, writers: .many)
///     print(capabilities.writers == .one ? "loads wait for each other" : "loads run side by side")
public struct DestinationCapabilities: Sendable, Equatable {
    /// How many loads may write at once.
    public enum Writers: Sendable, Equatable {
        /// One at a time (SQLite: other loads download ahead and wait for their turn).
        case one
        /// Side by side, each in its own transaction (PostgreSQL).
        case many
    }

    /// What the destination can store, where that is less than the converter produces.
    public var storableValues: StorableValues
    /// The longest table, column or index name, in UTF-8 bytes (nil: any length).
    public var maximumNameBytes: Int?
    /// The most columns a table holds (nil: no limit socload knows).
    public var columnLimit: ColumnLimit?
    public var writers: Writers
    /// True when a table may be distributed over servers (`--distribute-by`, with Citus).
    public var distributesTables: Bool
    /// How `select --search` finds words (`--fts`), in words for messages; nil: not at all.
    public var fullTextSearch: String?
    /// True when the portal's descriptions become the database's comments on tables and columns.
    public var keepsDescriptions: Bool
    /// True when the whole database is one file that other programs open as it is (SQLite's:
    /// Datasette, GDAL, a browser's SQLite viewer); false for a server's database.
    public var isOneFile: Bool

    public init(storableValues: StorableValues, maximumNameBytes: Int? = nil, columnLimit: ColumnLimit? = nil,
                writers: Writers, distributesTables: Bool = false, fullTextSearch: String? = nil,
                keepsDescriptions: Bool = false, isOneFile: Bool = false) {
        self.storableValues = storableValues
        self.maximumNameBytes = maximumNameBytes
        self.columnLimit = columnLimit
        self.writers = writers
        self.distributesTables = distributesTables
        self.fullTextSearch = fullTextSearch
        self.keepsDescriptions = keepsDescriptions
        self.isOneFile = isOneFile
    }
}
