/// Whether bytes are one JSON value (RFC 8259), checked in place: no value is built, no memory
/// taken but the nesting, so a reader that only needs to know (an export writing a JSON column)
/// checks each cell cheaply.
///
///     JSONSyntax.isOneValue(Array(#"{"a": [1, true]}"#.utf8))   // true
///     JSONSyntax.isOneValue(Array("plain text".utf8))            // false
public enum JSONSyntax {
    public static func isOneValue(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isOneValue($0) }
    }

    public static func isOneValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var checker = Checker(bytes: bytes)
        return checker.value()
    }

    private struct Checker {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0
        /// The open containers, innermost last: `{` or `[`.
        var open: [UInt8] = []

        mutating func space() {
            while at < bytes.count {
                switch bytes[at] {
                case 0x20, 0x0A, 0x0D, 0x09: at += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        /// The whole input: one value, whitespace around it.
        mutating func value() -> Bool {
            var wantsValue = true
            while true {
                space()
                if wantsValue {
                    guard at < bytes.count else { return false }
                    switch bytes[at] {
                    case UInt8(ascii: "{"):
                        at += 1
                        space()
                        if take(UInt8(ascii: "}")) { wantsValue = false; continue }
                        open.append(UInt8(ascii: "{"))
                        guard key() else { return false }
                    case UInt8(ascii: "["):
                        at += 1
                        space()
                        if take(UInt8(ascii: "]")) { wantsValue = false; continue }
                        open.append(UInt8(ascii: "["))
                    case UInt8(ascii: "\""):
                        guard string() else { return false }
                        wantsValue = false
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        guard number() else { return false }
                        wantsValue = false
                    case UInt8(ascii: "t"): guard literal("true") else { return false }; wantsValue = false
                    case UInt8(ascii: "f"): guard literal("false") else { return false }; wantsValue = false
                    case UInt8(ascii: "n"): guard literal("null") else { return false }; wantsValue = false
                    default: return false
                    }
                    continue
                }
                guard let container = open.last else { return at == bytes.count }
                if take(UInt8(ascii: ",")) {
                    if container == UInt8(ascii: "{") { guard key() else { return false } }
                    wantsValue = true
                } else if take(container == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    open.removeLast()
                } else {
                    return false
                }
            }
        }

        /// A member's name and its colon.
        mutating func key() -> Bool {
            space()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), string() else { return false }
            space()
            return take(UInt8(ascii: ":"))
        }

        mutating func string() -> Bool {
            at += 1
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                if byte == UInt8(ascii: "\"") { return true }
                if byte < 0x20 { return false }
                guard byte == UInt8(ascii: "\\") else { continue }
                guard at < bytes.count else { return false }
                let escaped = bytes[at]
                at += 1
                if escaped == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        guard at < bytes.count, isHex(bytes[at]) else { return false }
                        at += 1
                    }
                } else {
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"): break
                    default: return false
                    }
                }
            }
            return false
        }

        private func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }

        mutating func digits() -> Int {
            let start = at
            while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) { at += 1 }
            return at - start
        }

        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            if take(UInt8(ascii: "0")) {
                // No leading zeros.
            } else if digits() == 0 {
                return false
            }
            if take(UInt8(ascii: ".")), digits() == 0 { return false }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                if digits() == 0 { return false }
            }
            return true
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.count - at >= text.count else { return false }
            for (offset, byte) in text.enumerated() where bytes[at + offset] != byte { return false }
            at += text.count
            return true
        }
    }
}
