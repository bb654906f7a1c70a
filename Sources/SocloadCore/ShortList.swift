/// Lists in messages stay short: one error line names at most a few items, then how many more
/// there are, so a 10,000-column document cannot make a 169,000-character line.
extension Sequence where Element == String {
    /// The items joined by `separator`, cut after `limit` with "... and N more".
    ///
    ///     let listed = ["a", "b", "c", "d", "e", "f", "g"].shortList()   // "a, b, c, d, e ... and 2 more"
    public func shortList(limit: Int = 5, separator: String = ", ") -> String {
        var shown: [String] = []
        var more = 0
        for item in self {
            if shown.count < limit { shown.append(item) } else { more += 1 }
        }
        return shown.joined(separator: separator) + (more > 0 ? " ... and \(more) more" : "")
    }
}
