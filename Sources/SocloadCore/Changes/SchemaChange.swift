/// One way a refresh's table differs from the one it replaces: a column added, removed,
/// renamed or retyped, the key changed, a lookup or a child table added or removed. What the
/// summary prints (one line each), `--on-schema-change` governs and `_socload_schema_changes`
/// keeps.
public struct SchemaChange: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case columnAdded = "column added"
        case columnRemoved = "column removed"
        case columnRenamed = "column renamed"
        case columnRetyped = "column retyped"
        case keyChanged = "key changed"
        case lookupAdded = "lookup added"
        case lookupRemoved = "lookup removed"
        case childTableAdded = "child table added"
        case childTableRemoved = "child table removed"
    }

    /// The loaded table the change is about.
    public var table: String
    public var kind: Kind
    /// The column (its name before the change), or the key, lookup or child table.
    public var name: String
    /// What it was (a type, a name, key columns); nil for an addition.
    public var before: String?
    /// What it is now; nil for a removal.
    public var after: String?

    public init(table: String, kind: Kind, name: String, before: String? = nil, after: String? = nil) {
        self.table = table
        self.kind = kind
        self.name = name
        self.before = before
        self.after = after
    }

    /// True for a column added, removed, renamed or retyped.
    public var isAboutAColumn: Bool {
        [.columnAdded, .columnRemoved, .columnRenamed, .columnRetyped].contains(kind)
    }

    /// The change in one line as `--on-schema-change evolve` applies it: a renamed or removed
    /// column says that it was kept.
    public var evolvedLine: String {
        switch kind {
        case .columnRenamed: return "column \(name) renamed to \(after ?? "?") upstream: kept as \(name)"
        case .columnRemoved: return "column \(name) removed upstream: kept (NULL in new rows)"
        default: return line
        }
    }

    /// The change in one line: `column agency renamed to department`, `column n retyped: integer -> text`.
    public var line: String {
        switch kind {
        case .columnAdded: return "column \(name) added (\(after ?? "?"))"
        case .columnRemoved: return "column \(name) removed (was \(before ?? "?"))"
        case .columnRenamed: return "column \(name) renamed to \(after ?? "?")"
        case .columnRetyped: return "column \(name) retyped: \(before ?? "?") -> \(after ?? "?")"
        case .keyChanged: return "key changed: (\(before ?? "")) -> (\(after ?? ""))"
        case .lookupAdded: return "lookup \(name) added"
        case .lookupRemoved: return "lookup \(name) removed"
        case .childTableAdded: return "child table \(name) added"
        case .childTableRemoved: return "child table \(name) removed"
        }
    }
}

/// What a refresh does when the table's shape changed (`--on-schema-change`).
public enum SchemaChangePolicy: String, Sendable, Codable, CaseIterable {
    /// The table takes the new shape; each change is printed as a warning.
    case warn
    /// Nothing changes: the refresh fails (exit 65) listing the changes.
    case fail
    /// The table keeps the columns it had, so queries written against it keep working: new
    /// columns are added, a column gone upstream stays (NULL in new rows), a renamed one keeps
    /// its old name (`LoadPlan.evolved(keepingColumnsOf:changes:)`).
    case evolve
}
