/// How a column stores dates and times as text, so that a `Date` in a `RowFilter` is compared
/// with the column in the column's own form.
///
/// A `Date` binds as UTC text with a `Z` (`2013-02-01T00:00:00Z`). Socrata's fixed timestamps are
/// stored that way, but floating ones (`calendar_date`) without the `Z` and dates as `2013-02-01`;
/// compared as text, `2013-02-01T00:00:00Z` equals neither, and as a lower bound it skips the very
/// instant it names. In a predicate on a column of known form, such a value is rewritten:
///
/// - `fixed`: unchanged.
/// - `floating`: the UTC wall-clock time, without the `Z` (a `Date` meets a floating column as
///   its UTC wall-clock time).
/// - `date`: the UTC date when the time is midnight (`2013-02-01`), else the wall-clock time,
///   which then falls between two dates as it should.
///
/// A raw statement argument (`db.execute(sql:arguments:)`) has no column to look at: a `Date`
/// there binds as `2013-02-01T00:00:00Z`.
public enum TimestampForm: String, Sendable, Codable {
    case fixed, floating, date

    /// The form of a stored value (`2013-02-01`, `2013-02-01T00:00:00`, `...Z`); nil for text that
    /// is not a date or timestamp.
    public init?(storedValue text: String) {
        guard let period = DatePeriod(text.hasSuffix("Z") ? String(text.dropLast()) : text), period.start.count >= 10 else {
            // Fractions of a second are not a DatePeriod form: judge by the shape alone.
            guard text.count > 19, text.dropFirst(10).first == "T" else { return nil }
            self = text.hasSuffix("Z") ? .fixed : .floating
            return
        }
        if text.hasSuffix("Z") { self = .fixed } else { self = period.start.count == 10 ? .date : .floating }
    }

    /// `value` in this form, when it is a UTC timestamp as a `Date` binds (`...Z`); other values
    /// are returned as they are.
    public func stored(_ value: DatabaseValue) -> DatabaseValue {
        guard self != .fixed, case .text(let text) = value, text.count >= 20, text.hasSuffix("Z"),
              text.dropFirst(10).first == "T", ISO8601Timestamp.parse(text) != nil else { return value }
        let wallClock = String(text.dropLast())
        if self == .date {
            let time = wallClock.dropFirst(11)
            if time == "00:00:00" || time == "00:00:00.000" { return .text(String(wallClock.prefix(10))) }
        }
        return .text(wallClock)
    }
}

extension RowFilter {
    /// The predicate with every UTC timestamp value (as a `Date` binds) in the form of its column.
    public func adapted(to forms: [String: TimestampForm]) -> RowFilter {
        guard !forms.isEmpty else { return self }
        let lowered = Dictionary(forms.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        func form(_ column: String) -> TimestampForm? { lowered[column.lowercased()] }
        switch self {
        case let .comparison(column, op, value):
            return .comparison(column: column, operator: op, value: form(column)?.stored(value) ?? value)
        case let .isIn(column, values):
            return .isIn(column: column, values: form(column).map { form in values.map(form.stored) } ?? values)
        case let .between(column, lower, upper):
            guard let form = form(column) else { return self }
            return .between(column: column, lower: form.stored(lower), upper: form.stored(upper))
        case .all(let parts): return .all(parts.map { $0.adapted(to: forms) })
        case .any(let parts): return .any(parts.map { $0.adapted(to: forms) })
        case .not(let inner): return .not(inner.adapted(to: forms))
        case .isNull, .textMatch, .like, .related: return self
        }
    }

    /// The columns this predicate compares with a UTC timestamp value (as a `Date` binds).
    package var columnsComparedWithTimestamps: Set<String> {
        func isTimestamp(_ value: DatabaseValue) -> Bool {
            if case .text(let text) = value { return text.count >= 20 && text.hasSuffix("Z") && text.dropFirst(10).first == "T" }
            return false
        }
        switch self {
        case let .comparison(column, _, value): return isTimestamp(value) ? [column] : []
        case let .isIn(column, values): return values.contains(where: isTimestamp) ? [column] : []
        case let .between(column, lower, upper): return isTimestamp(lower) || isTimestamp(upper) ? [column] : []
        case .all(let parts), .any(let parts): return parts.reduce(into: []) { $0.formUnion($1.columnsComparedWithTimestamps) }
        case .not(let inner): return inner.columnsComparedWithTimestamps
        case .isNull, .textMatch, .like, .related: return []
        }
    }
}
