/// The values bound to a statement's parameters: positional (`?`) and named (`:name`).
///
/// For example:
///
///     let rows = try db.fetchRows(sql: "select * from t where agency = ? and year > ?", arguments: ["State", 2010])
///     try db.execute(sql: "update t set x = :x", arguments: ["x": 1])   // or [":x": 1]
public struct StatementArguments: Sendable, Hashable {
    public var positional: [DatabaseValue]
    /// Keys are parameter names, without their `:`, `@` or `$` prefix or with it (`"x"` or `":x"`).
    public var named: [String: DatabaseValue]

    /// No values, for a statement without parameters.
    public init() {
        self.init(positional: [])
    }

    public init(positional: [DatabaseValue], named: [String: DatabaseValue] = [:]) {
        self.positional = positional
        self.named = named
    }

    public init(_ values: [(any DatabaseValueConvertible)?]) {
        self.init(positional: values.map { $0?.databaseValue ?? .null })
    }

    public init(named values: [String: (any DatabaseValueConvertible)?]) {
        self.init(positional: [], named: values.mapValues { $0?.databaseValue ?? .null })
    }

    public var isEmpty: Bool { positional.isEmpty && named.isEmpty }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        var named: [String: DatabaseValue] = [:]
        for (key, value) in elements { named[key] = value?.databaseValue ?? .null }
        self.init(positional: [], named: named)
    }
}
