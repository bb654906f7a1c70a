import Foundation

/// Which cell each member key of an object row goes to, remembered as the keys are written
/// (their raw bytes, escapes and all) so that a row costs a compare of bytes per member, with
/// no String, array or hash made: first the key seen at the same place in the last rows, then
/// every key met so far. SODA rows leave out their NULL fields, so a member's place moves from
/// row to row; the second look finds it anyway. At most `maximumKeys` keys are remembered (a
/// document with more distinct keys than that resolves the others each time, by name).
package struct MemberKeyTable: Sendable {
    private struct Entry: Sendable {
        var start: Int
        var count: Int
        var cell: Int?
    }

    package static let maximumKeys = 1_024

    package init() {}

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Per member position, the entry last found there (-1: none).
    private var byPosition: [Int] = []

    /// The cell of the key at `range` of `text`, the member at `position` of its row;
    /// `resolve(name bytes as written)` names it when the key is new.
    package mutating func cell(forKeyAt range: Range<Int>, in text: UnsafeBufferPointer<UInt8>, position: Int,
                       resolve: () -> Int?) -> Int? {
        let key = UnsafeBufferPointer(rebasing: text[range])
        if position < byPosition.count, byPosition[position] >= 0, matches(entries[byPosition[position]], key) {
            return entries[byPosition[position]].cell
        }
        var found = -1
        for index in entries.indices where matches(entries[index], key) {
            found = index
            break
        }
        if found < 0 {
            let cell = resolve()
            guard entries.count < Self.maximumKeys else { return cell }
            entries.append(Entry(start: bytes.count, count: key.count, cell: cell))
            bytes.append(contentsOf: key)
            found = entries.count - 1
        }
        if position < Self.maximumKeys {
            if position >= byPosition.count { byPosition.append(contentsOf: repeatElement(-1, count: position + 1 - byPosition.count)) }
            byPosition[position] = found
        }
        return entries[found].cell
    }

    private func matches(_ entry: Entry, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard entry.count == key.count else { return false }
        guard entry.count > 0 else { return true }
        return bytes.withUnsafeBufferPointer { stored in
            memcmp(stored.baseAddress! + entry.start, key.baseAddress!, entry.count) == 0
        }
    }
}
