import SocloadCore

/// How many columns a description lists, counted from its bytes before anything is parsed, so a
/// description of a million columns is refused without building a million of anything.
enum MetadataColumnCount {
    /// The elements of the array at `path` (`["view", "columns"]`), or nil when there is none.
    /// Safe on bytes that are not valid JSON: it stops at their end.
    static func elements(of path: [String], in bytes: [UInt8]) -> Int? {
        struct Frame {
            var isObject: Bool
            /// The names from the top to this container while they can still lead to `path`; nil
            /// below that (so a document nested 100,000 deep costs one small frame a level).
            var pattern: [String]?
            var pendingName = ""
            var expectingName: Bool
        }
        var stack: [Frame] = []
        var count: Int?
        var awaitingElement = false
        var index = 0
        let end = bytes.count
        func atTarget() -> Bool { !stack.isEmpty && !stack[stack.count - 1].isObject && stack[stack.count - 1].pattern == path }
        while index < end {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
                continue
            }
            if atTarget(), awaitingElement, byte != UInt8(ascii: "]"), byte != UInt8(ascii: ",") {
                count = (count ?? 0) + 1
                awaitingElement = false
            }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var pattern: [String]? = []
                if let parent = stack.last {
                    pattern = parent.pattern.flatMap { above in
                        let next = above + [parent.isObject ? parent.pendingName : "[]"]
                        return next.count <= path.count && path.starts(with: next) ? next : nil
                    }
                }
                stack.append(Frame(isObject: byte == UInt8(ascii: "{"), pattern: pattern, expectingName: byte == UInt8(ascii: "{")))
                if atTarget() {
                    count = count ?? 0
                    awaitingElement = true
                }
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
                index += 1
            case UInt8(ascii: ","):
                if let last = stack.indices.last {
                    if stack[last].isObject { stack[last].expectingName = true } else if atTarget() { awaitingElement = true }
                }
                index += 1
            case UInt8(ascii: "\""):
                let start = min(index + 1, end)
                index += 1
                while index < end, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                let stop = max(start, min(index, end))
                index += 1
                if let last = stack.indices.last, stack[last].isObject, stack[last].expectingName {
                    stack[last].expectingName = false
                    // Names here are plain (`view`, `columns`); an escaped one is not what is looked for.
                    stack[last].pendingName = String(decoding: bytes[start..<stop], as: UTF8.self)
                }
            default:
                index += 1
            }
        }
        return count
    }
}
