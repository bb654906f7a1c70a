extension RecordedRowChange {
    /// One column of a logged row: its value before and after the refresh (nil: the row, or the
    /// column, was not there; `.null`: it was NULL).
    public struct ColumnChange: Sendable, Equatable {
        public var column: String
        public var old: JSONValue?
        public var new: JSONValue?
    }

    /// The key's columns and values, in the order of `columns` (the table's; a database may
    /// have kept the JSON's members in another order).
    public func keyValues(inOrderOf columns: [String] = []) -> [(column: String, value: JSONValue)] {
        Self.ordered(Self.members(key), by: columns).map { ($0.key, $0.value) }
    }

    /// For a changed row, the columns whose value differs (a column only one side has counts
    /// when it is not NULL there); for an added or removed row, every column of the row. In
    /// the order of `columns` (the table's), then any others.
    public func columnChanges(inOrderOf columns: [String] = []) -> [ColumnChange] {
        let order = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return Self.stableSorted(unorderedColumnChanges) { order[$0.column] ?? Int.max }
    }

    /// The row's values before (`old`) or after as one compact JSON object, in column order.
    public func values(old: Bool, inOrderOf columns: [String] = []) -> String? {
        guard let text = old ? oldValues : newValues else { return nil }
        return JSONValue.object(Self.ordered(Self.members(text), by: columns)).jsonText
    }

    private static func ordered(_ members: [JSONMember], by columns: [String]) -> [JSONMember] {
        let order = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return stableSorted(members) { order[$0.key] ?? Int.max }
    }

    private static func stableSorted<T>(_ items: [T], by rank: (T) -> Int) -> [T] {
        items.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    private var unorderedColumnChanges: [ColumnChange] {
        let old = oldValues.map(Self.members) ?? []
        let new = newValues.map(Self.members) ?? []
        let oldByName = Dictionary(old.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let newByName = Dictionary(new.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var names = old.map(\.key)
        names += new.map(\.key).filter { oldByName[$0] == nil }
        return names.compactMap { name in
            let before = oldByName[name], after = newByName[name]
            if kind == .changed, Self.same(before, after) { return nil }
            return ColumnChange(column: name, old: before, new: after)
        }
    }

    /// Equal values, where a missing column and NULL are the same, and numbers compare by value.
    private static func same(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left ?? .null, right ?? .null) {
        case let (.number(a), .number(b)): return a == b || (Double(a) != nil && Double(a) == Double(b))
        case let (a, b): return a == b
        }
    }

    private static func members(_ text: String) -> [JSONMember] {
        guard case .object(let members)? = try? JSONValueParser.parse(Array(text.utf8)) else { return [] }
        return members
    }
}
