/// What a glue table's load reports beside its row count: pairs given twice and merged, and
/// links to rows the other table does not have (yet).
public enum GlueNotes {
    public static func describe(table: String, glue: PlanGlue, merged: Int, dangling: Int, otherExists: Bool) -> [String] {
        var notes: [String] = []
        if merged > 0 {
            notes.append("\(table): \(merged) link\(merged == 1 ? " was" : "s were") given twice by \(glue.table) and merged "
                         + "(the later element's fields kept)")
        }
        if dangling > 0 {
            let place = otherExists ? "rows \(glue.otherTable) does not have" : "\(glue.otherTable), which is not loaded yet"
            notes.append("\(table): \(dangling) link\(dangling == 1 ? " points" : "s point") at \(place) "
                         + "(kept: they connect once it has them)")
        }
        return notes
    }
}
