/// What the user asked to extract into a lookup table (`socload extract`, `fetch --extract`):
/// the plan turns it into a `PlanLookup` once it knows the table's columns.
///
///     let extraction = try Extraction(spec: "agency+count+distinct=name")
///     print(extraction.columns, extraction.count, extraction.countDistinct)
public struct Extraction: Sendable, Codable, Equatable {
    /// The columns whose values move to the lookup.
    public var columns: [String]
    /// The lookup table's name; nil: the columns' names joined by `_`.
    public var table: String?
    /// Keep `<table>_count` on each lookup row.
    public var count: Bool
    /// Keep `<OTHER>_count`, the distinct non-NULL values of OTHER, on each lookup row.
    public var countDistinct: [String]
    /// Delete lookup rows that no row references any more.
    public var prune: Bool

    public init(columns: [String], table: String? = nil, count: Bool = false, countDistinct: [String] = [],
                prune: Bool = false) {
        self.columns = columns
        self.table = table
        self.count = count
        self.countDistinct = countDistinct
        self.prune = prune
    }

    /// Reads `COLUMN[,COLUMN...][:LOOKUP][+count][+distinct=OTHER][+prune]`; a name holding one
    /// of `,:+=.` is written in double quotes, as in SQL.
    public init(spec: String) throws {
        func fail(_ reason: String) -> PlanError {
            PlanError("--extract \(spec): \(reason) (the form is COLUMN[,COLUMN...][:LOOKUP][+count][+distinct=OTHER][+prune])")
        }
        var scanner = QuotedNameScanner(spec)
        var columns: [String] = []
        var separator: Character?
        repeat {
            guard let name = scanner.name() else { throw fail("a column name is missing or a quote is not closed") }
            columns.append(name)
            separator = scanner.separator()
        } while separator == ","
        var table: String?
        if separator == ":" {
            guard let name = scanner.name() else { throw fail("the lookup's name is missing after :") }
            table = name
            separator = scanner.separator()
        }
        var count = false
        var prune = false
        var countDistinct: [String] = []
        while separator == "+" {
            switch scanner.name() {
            case "count": count = true
            case "prune": prune = true
            case "distinct":
                guard scanner.separator() == "=", let other = scanner.name() else { throw fail("+distinct needs =OTHER") }
                countDistinct.append(other)
            case let word: throw fail("+\(word ?? "") is not count, distinct=OTHER or prune")
            }
            separator = scanner.separator()
        }
        guard separator == nil, scanner.isAtEnd else { throw fail("unexpected text after the names") }
        self.init(columns: columns, table: table, count: count, countDistinct: countDistinct, prune: prune)
    }

    /// The extraction written as a SPEC (what `init(spec:)` reads).
    public var spec: String {
        var text = columns.map { QuotedNameScanner.written($0) }.joined(separator: ",")
        if let table { text += ":" + QuotedNameScanner.written(table) }
        if count { text += "+count" }
        for other in countDistinct { text += "+distinct=" + QuotedNameScanner.written(other) }
        if prune { text += "+prune" }
        return text
    }
}
