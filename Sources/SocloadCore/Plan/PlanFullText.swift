/// A table's full-text index (`--fts col[,col...]`): the columns whose words `select --search`
/// finds, built by each destination after the rows are in and again on every refresh (a new
/// copy's rows are new), the same words matching on both:
///
/// - SQLite: the FTS5 table `T_fts` over `T` (external content, `unicode61 remove_diacritics 2`),
///   kept by triggers when rows are written later (an upsert, the user's own `INSERT`), as
///   `sqlite-utils enable-fts` and Datasette expect.
/// - PostgreSQL: the generated `tsvector` column `_search` (the `simple` configuration, accents
///   removed where the database has `unaccent`) with a GIN index.
public struct PlanFullText: Sendable, Codable, Equatable {
    /// The table's columns, as stored (never a lookup's).
    public var columns: [String]

    public init(columns: [String]) {
        self.columns = columns
    }

    /// The FTS5 table of `table` in SQLite.
    public static func sqliteTable(of table: String) -> String { table + "_fts" }

    /// The `tsvector` column in PostgreSQL.
    public static let postgreSQLColumn = "_search"
}

extension PlanTable {
    /// Indexes the words of `columns` (`--fts`): stored columns of the table, not the key's
    /// only text nor a lookup's (a lookup's values are in its own table).
    public mutating func indexFullText(_ columns: [String]) throws {
        guard !columns.isEmpty else { throw PlanError("--fts needs at least one column") }
        var names: [String] = []
        for name in columns {
            guard let column = storedColumn(named: name) else {
                if let lookup = lookup(extracting: name) {
                    throw PlanError("--fts \(name): \(name) was extracted into the lookup \(lookup.table) "
                                    + "(its key in \(self.name) is \(lookup.foreignKey)): search the lookup instead")
                }
                throw PlanError("--fts \(name): \(self.name) has no column '\(name)' (its columns: \(storedColumns.map(\.name).shortList()))")
            }
            if column.name == PlanFullText.postgreSQLColumn {
                throw PlanError("--fts \(name): \(PlanFullText.postgreSQLColumn) is the name of the index's own column")
            }
            if !names.contains(column.name) { names.append(column.name) }
        }
        if storedColumn(named: PlanFullText.postgreSQLColumn) != nil {
            throw PlanError("--fts: \(self.name) has a column \(PlanFullText.postgreSQLColumn), the name the index's own column needs")
        }
        fullText = PlanFullText(columns: names)
    }
}

/// The words `select --search` looks for: the letters and digits of what was typed, split at
/// everything else (`O'Brien's café` is `O`, `Brien`, `s`, `café`), as both databases split the
/// indexed text. A row matches when it has every word, in any column, ignoring case and accents.
public struct FullTextQuery: Sendable, Equatable {
    public let words: [String]

    /// nil when the text has no letter or digit.
    public init?(_ text: String) {
        var words: [String] = []
        var word = ""
        for character in text {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    /// An FTS5 query of the words, each a quoted string (so none is read as an operator).
    public var fts5Query: String {
        words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ")
    }
}

/// How a database finds the rows of a full-text search and ranks them (`SQLDialect`).
public struct FullTextClause: Sendable, Equatable {
    /// Joined after the table (may be empty).
    public var join: String
    /// ANDed with the request's condition.
    public var condition: String
    /// ORDER BY this, best first.
    public var rank: String
    /// The one bound value, the words as the database's query takes them.
    public var argument: DatabaseValue

    public init(join: String, condition: String, rank: String, argument: DatabaseValue) {
        self.join = join
        self.condition = condition
        self.rank = rank
        self.argument = argument
    }
}
