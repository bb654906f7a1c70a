import Foundation

/// One thing the portal stated about a column at export time (its `cachedContents`), to hold the
/// loaded table against: how many cells are set, the smallest value, the largest value. It says
/// what to ask the table (`question`) and judges the answer (`agrees(with:)`); a destination
/// only measures. Socrata side, no SQL.
public struct PortalCheck: Sendable, Equatable {
    public enum Statement: String, Sendable {
        case nonNull = "non_null", smallest, largest
    }

    /// What the destination measures for the check.
    public enum Question: Sendable, Equatable {
        /// Rows where any of `columns` is set.
        case nonNullCount
        /// The column's smallest or largest value.
        case smallest, largest
        /// Whether some row holds this value in the column (`1` or `0`).
        case contains(CellValue)
    }

    /// The portal's fieldName.
    public let field: String
    /// The table columns the field became (several for the parts of a location).
    public let columns: [String]
    public let type: LogicalType
    public let statement: Statement
    /// The portal's value, as text.
    public let stated: String
    public let question: Question
    /// Cells of these columns stored as NULL at load time because they were not of their type:
    /// the portal counted them as set.
    public let invalidCells: Int
    /// True when some of the column's numbers were stored rounded (more digits than the
    /// database keeps): its bounds are then compared as the database stores them.
    public var storedRounded = false

    /// True when the table's answer (as text; nil for NULL) agrees with what the portal stated.
    ///
    /// Counts agree exactly (the table's count plus the cells stored as NULL); numbers as
    /// values; dates and timestamps as instants; text by membership, because the portal orders
    /// text with a collation that ignores case, spaces and punctuation, so its bounds are not the
    /// table's byte-order bounds, but they are values it holds.
    public func agrees(with answer: String?) -> Bool {
        switch question {
        case .nonNullCount:
            guard let counted = answer.flatMap({ Int($0) }), let expected = Int(stated) else { return false }
            return counted + invalidCells == expected
        case .contains:
            return answer == "1"
        case .smallest, .largest:
            guard let answer else { return false }
            if type.isNumeric {
                // As decimals, exactly: `0.00` is `0`, but 37398373983741 is not 37398373983740.
                if let a = Decimal(string: answer, locale: Locale(identifier: "en_US_POSIX")),
                   let b = Decimal(string: stated, locale: Locale(identifier: "en_US_POSIX")) {
                    if a == b { return true }
                    // A bound of more digits than the database keeps was stored rounded.
                    guard storedRounded, let x = Double(answer), let y = Double(stated) else { return false }
                    return x == y
                }
                guard let a = Double(answer), let b = Double(stated) else { return false }
                return a == b
            }
            guard let a = ISO8601Timestamp.parse(answer), let b = ISO8601Timestamp.parse(stated) else { return false }
            return a == b
        }
    }

    /// The checks the portal's statistics allow on a table loaded with `plan` from a view with
    /// `columns`; `invalidCells` are the counts recorded at load time.
    public static func checks(plan: LoadPlan, columns: [ColumnMetadata], invalidCells: [InvalidCells]) -> [PortalCheck] {
        let table = plan.mainTable
        var checks: [PortalCheck] = []
        for column in columns {
            guard let field = column.fieldName, let statistics = column.cachedContents,
                  let cell = plan.sourceFields.firstIndex(of: field) else { continue }
            let loaded = table.columns.filter { planColumn in
                switch planColumn.source {
                case .field(let source), .part(let source, _, _): return source == cell
                case .rowIdentifier, .absent: return false
                }
            }
            guard let first = loaded.first else { continue }
            let names = loaded.map(\.name)
            let invalid = invalidCells.filter { names.contains($0.column) && !$0.areRounded }.reduce(0) { $0 + $1.count }
            let rounded = invalidCells.contains { names.contains($0.column) && $0.areRounded }
            if let nonNull = statistics.nonNull {
                checks.append(PortalCheck(field: field, columns: names, type: first.type, statement: .nonNull,
                                          stated: String(nonNull), question: .nonNullCount, invalidCells: invalid))
            }
            // Bounds of a whole field only (a location's bounds are objects, not compared).
            guard loaded.count == 1, case .field = first.source else { continue }
            for (statement, stated) in [(Statement.smallest, statistics.smallest), (.largest, statistics.largest)] {
                guard let stated, let question = question(for: statement, stated: stated, type: first.type) else { continue }
                checks.append(PortalCheck(field: field, columns: names, type: first.type, statement: statement,
                                          stated: stated, question: question, invalidCells: invalid, storedRounded: rounded))
            }
        }
        return checks
    }

    /// How to check a bound on a column of `type`; nil when it cannot be (a number the portal
    /// wrote in a form the table does not hold, say).
    private static func question(for statement: Statement, stated: String, type: LogicalType) -> Question? {
        let extreme: Question = statement == .smallest ? .smallest : .largest
        switch type {
        case .integer, .decimal, .double:
            return Double(stated) == nil ? nil : extreme
        case .timestamp, .floatingTimestamp, .date:
            return ISO8601Timestamp.parse(stated) == nil ? nil : extreme
        case .boolean:
            switch stated.lowercased() {
            case "true": return .contains(.integer(1))
            case "false": return .contains(.integer(0))
            default: return nil
            }
        case .text, .json, .geometry:
            return .contains(.text(stated))
        }
    }
}

extension LogicalType {
    package var isNumeric: Bool { self == .integer || self == .decimal || self == .double }
}

/// A check and what the table said.
public struct PortalCheckResult: Sendable, Equatable {
    public let check: PortalCheck
    /// The table's answer as shown: a count, a bound, or `present` / `absent`.
    public let measured: String
    public let agrees: Bool

    public init(check: PortalCheck, answer: String?) {
        self.check = check
        agrees = check.agrees(with: answer)
        switch check.question {
        case .nonNullCount:
            let count = answer ?? "0"
            measured = check.invalidCells > 0 ? "\(count) + \(check.invalidCells) stored as NULL" : count
        case .contains: measured = answer == "1" ? "present" : "absent"
        case .smallest, .largest: measured = answer ?? "NULL"
        }
    }
}
