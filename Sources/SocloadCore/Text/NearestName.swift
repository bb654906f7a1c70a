/// The name a mistyped one was probably meant to be (`--limt` → `limit`, `fecth` → `fetch`,
/// `page-sise` → `page-size`), for a "did you mean" in the error: the closest by edits (a letter
/// added, dropped, changed, or two swapped), when it is close enough to be a typo.
package enum NearestName {
    /// The closest of `names` to `typed`, or nil when none is within a typo's reach (one edit
    /// for short names, about one in three letters for longer ones).
    package static func to(_ typed: String, among names: [String]) -> String? {
        let wanted = Array(typed.lowercased())
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = edits(wanted, Array(name.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        guard let best, best.distance > 0, best.distance <= max(1, min(wanted.count, best.name.count) / 3) else { return nil }
        return best.name
    }

    /// " (did you mean --limit?)" or "".
    package static func hint(_ typed: String, among names: [String], prefix: String = "") -> String {
        to(typed, among: names).map { " (did you mean \(prefix)\($0)?)" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours each cost one.
    package static func edits(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
