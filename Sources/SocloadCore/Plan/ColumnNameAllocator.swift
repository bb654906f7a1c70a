/// Hands out column names that are unique case-insensitively (SQLite's and most databases'
/// rule): a name already taken gets the first free numeric suffix, `name_2`, `name_3`, ... in
/// column order, so the result is the same on every load.
package struct ColumnNameAllocator {
    private var used = Set<String>()

    package init() {}

    package mutating func allocate(_ base: String) -> String {
        var name = base
        var suffix = 2
        while used.contains(name.lowercased()) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        used.insert(name.lowercased())
        return name
    }
}
