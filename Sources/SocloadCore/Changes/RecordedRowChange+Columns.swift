extension RecordedRowChange {
    /// One column of a logged row: its value before and after the refresh (nil: the row, or the
    /// column, was not there; `.null`: it was NULL).
    public struct ColumnChange: Sendable, Equatable {
        public var column: String
        public var old: JSONValue?
        public var new: JSONValue?
    }

    /// The key's columns and values, in the key's order.
    public var keyValues: [(column: String, value: JSONValue)] {
        Self.members(key).map { ($0.key, $0.value) }
    }

    /// For a changed row, the columns whose value differs (a column only one side has counts
    /// when it is not NULL there); for an added or removed row, every column of the row.
    public var columnChanges: [ColumnChange] {
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
