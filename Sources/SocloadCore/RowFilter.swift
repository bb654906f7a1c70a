/// A condition on a table's rows, built from parts and compiled to SQL with `?` placeholders:
/// identifiers are always quoted and values always bound, never spliced into the SQL.
///
/// For example:
///
///     let filter: RowFilter = .in("category", categories)
///         && .contains("note", "cafe", caseInsensitive: true, diacriticInsensitive: true)
///         && .between("start_time", "2015-10-01", "2015-10-29")
///
/// An `in` with an empty list means "no condition on that column": it is left out of the `all`
/// or `any` it stands in, so conditions built from optional lists combine without special cases.
/// A combination with nothing left in it is no condition at all (every row matches).
public indirect enum RowFilter: Sendable, Equatable {
    case comparison(column: String, operator: ComparisonOperator, value: DatabaseValue)
    case isIn(column: String, values: [DatabaseValue])
    case between(column: String, lower: DatabaseValue, upper: DatabaseValue)
    case isNull(column: String)
    case textMatch(column: String, kind: TextMatchKind, text: String, options: TextFolding.Options)
    case like(column: String, pattern: String)
    /// The foreign key points at a row of another table (by its key) where the inner predicate holds.
    case related(foreignKey: String, table: String, key: String, predicate: RowFilter)
    case all([RowFilter])
    case any([RowFilter])
    case not(RowFilter)

    public enum ComparisonOperator: String, Sendable {
        case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    public enum TextMatchKind: Sendable {
        case contains, beginsWith, endsWith
    }

    // MARK: - Building

    /// Rows whose value is `value`; `nil` (or `DatabaseValue.null`) matches the NULLs (`IS NULL`).
    public static func equals(_ column: String, _ value: (any DatabaseValueConvertible)?) -> RowFilter {
        .comparison(column: column, operator: .equal, value: value?.databaseValue ?? .null)
    }

    /// Rows whose value differs; like SQL, a row whose value is NULL matches neither `equals` nor
    /// `notEquals` of a value. `nil` matches every row that has a value (`IS NOT NULL`).
    public static func notEquals(_ column: String, _ value: (any DatabaseValueConvertible)?) -> RowFilter {
        .comparison(column: column, operator: .notEqual, value: value?.databaseValue ?? .null)
    }

    public static func lessThan(_ column: String, _ value: any DatabaseValueConvertible) -> RowFilter {
        .comparison(column: column, operator: .less, value: value.databaseValue)
    }

    /// With a date bound (`2015-10`, `2015-10-29`, `2015-10-29T12:30`) on an ISO-8601 text column,
    /// the whole period it names is included (see `DatePeriod`).
    public static func lessThanOrEqual(_ column: String, _ value: any DatabaseValueConvertible) -> RowFilter {
        .comparison(column: column, operator: .lessOrEqual, value: value.databaseValue)
    }

    public static func greaterThan(_ column: String, _ value: any DatabaseValueConvertible) -> RowFilter {
        .comparison(column: column, operator: .greater, value: value.databaseValue)
    }

    public static func greaterThanOrEqual(_ column: String, _ value: any DatabaseValueConvertible) -> RowFilter {
        .comparison(column: column, operator: .greaterOrEqual, value: value.databaseValue)
    }

    /// The value is one of `values`. An empty list is no condition (see the type's notes).
    public static func `in`(_ column: String, _ values: [any DatabaseValueConvertible]) -> RowFilter {
        .isIn(column: column, values: values.map(\.databaseValue))
    }

    /// Between two bounds, both included; a date upper bound includes the whole period it names.
    public static func between(_ column: String, _ lower: any DatabaseValueConvertible,
                               _ upper: any DatabaseValueConvertible) -> RowFilter {
        .between(column: column, lower: lower.databaseValue, upper: upper.databaseValue)
    }

    public static func isNull(_ column: String) -> RowFilter {
        .isNull(column: column)
    }

    /// The text occurs in the column. `%` and `_` match themselves: this is not LIKE.
    public static func contains(_ column: String, _ text: String, caseInsensitive: Bool = false,
                                diacriticInsensitive: Bool = false) -> RowFilter {
        .textMatch(column: column, kind: .contains, text: text, options: options(caseInsensitive, diacriticInsensitive))
    }

    public static func beginsWith(_ column: String, _ text: String, caseInsensitive: Bool = false,
                                  diacriticInsensitive: Bool = false) -> RowFilter {
        .textMatch(column: column, kind: .beginsWith, text: text, options: options(caseInsensitive, diacriticInsensitive))
    }

    public static func endsWith(_ column: String, _ text: String, caseInsensitive: Bool = false,
                                diacriticInsensitive: Bool = false) -> RowFilter {
        .textMatch(column: column, kind: .endsWith, text: text, options: options(caseInsensitive, diacriticInsensitive))
    }

    /// SQL LIKE with the pattern as given (`%` any text, `_` one character, `\` escapes);
    /// case-insensitive for ASCII letters, as in SQLite.
    public static func like(_ column: String, _ pattern: String) -> RowFilter {
        .like(column: column, pattern: pattern)
    }

    /// Rows whose foreign key `foreignKey` points at a row of `table` (by its column `key`) for
    /// which `predicate`, over that table's columns, holds: a filter through a lookup table
    /// (`socload extract`). No condition when `predicate` is none.
    ///
    ///     let predicate: RowFilter = .related("agency_id", to: "agency", where: .in("agency", ["State", "Defense"]))
    public static func related(_ foreignKey: String, to table: String, key: String = "id", where predicate: RowFilter) -> RowFilter {
        .related(foreignKey: foreignKey, table: table, key: key, predicate: predicate)
    }

    private static func options(_ caseInsensitive: Bool, _ diacriticInsensitive: Bool) -> TextFolding.Options {
        var options: TextFolding.Options = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        return options
    }

    public static func && (left: RowFilter, right: RowFilter) -> RowFilter {
        .all(left.conjuncts + right.conjuncts)
    }

    public static func || (left: RowFilter, right: RowFilter) -> RowFilter {
        .any(left.disjuncts + right.disjuncts)
    }

    public static prefix func ! (predicate: RowFilter) -> RowFilter {
        .not(predicate)
    }

    private var conjuncts: [RowFilter] {
        if case .all(let parts) = self { return parts }
        return [self]
    }

    private var disjuncts: [RowFilter] {
        if case .any(let parts) = self { return parts }
        return [self]
    }

    /// Every column the predicate names, for checking them against the table.
    public var columns: [String] {
        switch self {
        case let .comparison(column, _, _), let .isIn(column, _), let .between(column, _, _), let .isNull(column),
             let .textMatch(column, _, _, _), let .like(column, _), let .related(column, _, _, _):
            return [column]
        case .all(let parts), .any(let parts):
            return parts.flatMap(\.columns)
        case .not(let inner):
            return inner.columns
        }
    }

    /// The other tables a `related` part reads, each with the columns named there.
    public var relatedColumns: [(table: String, columns: [String])] {
        switch self {
        case let .related(_, table, key, inner): return [(table, [key] + inner.columns)] + inner.relatedColumns
        case .all(let parts), .any(let parts): return parts.flatMap(\.relatedColumns)
        case .not(let inner): return inner.relatedColumns
        default: return []
        }
    }
}

/// The old name of `RowFilter`, which Foundation's `Predicate` made ambiguous in every file that
/// imports both.
@available(*, deprecated, renamed: "RowFilter")
public typealias Predicate = RowFilter
