/// Word-at-a-time byte tests (SWAR): eight bytes checked with a few integer operations, so long
/// runs of ordinary text inside JSON strings are skipped quickly.
package enum ByteScanning {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// True when some byte of `word` MAY be zero (exact when none is, which is what matters: a
    /// false alarm only sends the caller to its byte-by-byte loop).
    @inline(__always)
    private static func mayHaveZeroByte(_ word: UInt64) -> Bool {
        (word &- ones) & ~word & highs != 0
    }

    /// True when the word may hold `"` or `\`.
    @inline(__always)
    package static func mayHaveQuoteOrBackslash(_ word: UInt64) -> Bool {
        mayHaveZeroByte(word ^ (0x22 &* ones)) || mayHaveZeroByte(word ^ (0x5C &* ones))
    }

    /// Advances `index` past whole words with no `"` or `\`, stopping at least 8 bytes before `end`.
    @inline(__always)
    package static func skipPlainWords(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if mayHaveQuoteOrBackslash(word) { return }
            index += 8
        }
    }

    /// Advances `index` past whole words of string bytes that need no attention (no `"`, `\\` or
    /// control byte), stopping at least 8 bytes before `end`; ORs the words it passes into
    /// `seen`, so the caller knows whether any byte above 0x7F went by (UTF-8 to validate).
    @inline(__always)
    package static func skipStringWords(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int, seen: inout UInt64) {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if mayHaveQuoteOrBackslash(word) || (word &- (0x20 &* ones)) & ~word & highs != 0 { return }
            seen |= word
            index += 8
        }
    }
}
