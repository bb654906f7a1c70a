import SocloadCore
import SocloadEngine
import SocloadTransport

/// The fields of CSV records, byte by byte (RFC 4180): a field in double quotes may hold the
/// delimiter, line breaks and `""` for a quote; a record ends at LF, CRLF or CR outside quotes.
/// Text after a closing quote (`"a"b`) is kept, as most readers keep it. A value type driven by
/// `CSVRecordReader`, so that its loop runs on local state.
package struct CSVFieldScanner {
    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted, afterCarriageReturn }

    /// A record longer than the limit (an unclosed quote, say): thrown before it is all in memory.
    package struct RecordTooLarge: Error {}

    package let delimiter: UInt8
    package let limit: Int
    private var state = State.fieldStart
    /// The current record's field bytes, one after another, and where each field ends.
    package private(set) var content: [UInt8] = []
    package private(set) var fieldEnds: [Int] = []
    package private(set) var fieldQuoted: [Bool] = []
    private var quoted = false
    /// True when the current record has a byte above 0x7F (to be checked as UTF-8).
    package private(set) var sawNonASCII = false
    /// The line the scanner is on, and the one the current record started on.
    package private(set) var line = 1
    package private(set) var recordLine = 1

    package init(delimiter: UInt8, limit: Int) {
        self.delimiter = delimiter
        self.limit = limit
    }

    /// True inside a quoted field.
    package var isInQuotes: Bool { state == .quoted }
    /// True when a record has begun and not ended.
    package var hasOpenRecord: Bool { state != .afterCarriageReturn && (!content.isEmpty || !fieldEnds.isEmpty || quoted) }

    /// The bytes of field `index` of the current record.
    package func field(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : fieldEnds[index - 1])..<fieldEnds[index]
    }

    /// True when the current record is a line with nothing on it.
    package var isBlankLine: Bool { fieldEnds.count == 1 && fieldEnds[0] == 0 && !fieldQuoted[0] }

    /// Scans `bytes`; `record` is called at the end of each record, with the fields in `self`.
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, record: (CSVFieldScanner) throws -> Void) throws {
        let quote = UInt8(ascii: "\""), newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D, delimiter = self.delimiter
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .afterCarriageReturn:
                state = .fieldStart
                if byte == newline { index += 1 }
                continue
            case .fieldStart:
                if byte == quote {
                    quoted = true
                    state = .quoted
                } else if byte == delimiter {
                    endField()
                } else if byte == newline || byte == carriageReturn {
                    try endRecord(byte, record)
                } else {
                    state = .unquoted
                    continue
                }
            case .unquoted:
                // A run of ordinary bytes at once.
                var end = index
                var high: UInt8 = 0
                while end < bytes.count {
                    let next = bytes[end]
                    if next == delimiter || next == newline || next == carriageReturn { break }
                    high |= next
                    end += 1
                }
                if high >= 0x80 { sawNonASCII = true }
                content.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                if content.count > limit { throw RecordTooLarge() }
                index = end
                guard end < bytes.count else { continue }
                if bytes[end] == delimiter { endField() } else { try endRecord(bytes[end], record) }
            case .quoted:
                var end = index
                var high: UInt8 = 0
                while end < bytes.count {
                    let next = bytes[end]
                    if next == quote { break }
                    if next == newline { line += 1 }
                    high |= next
                    end += 1
                }
                if high >= 0x80 { sawNonASCII = true }
                content.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                if content.count > limit { throw RecordTooLarge() }
                index = end
                if end < bytes.count { state = .quoteInQuoted }
            case .quoteInQuoted:
                if byte == quote {
                    content.append(quote)
                    state = .quoted
                } else if byte == delimiter {
                    endField()
                } else if byte == newline || byte == carriageReturn {
                    try endRecord(byte, record)
                } else {
                    state = .unquoted
                    continue
                }
            }
            index += 1
        }
    }

    /// The end of the file: the last record, when it has no line break after it.
    package mutating func finish(record: (CSVFieldScanner) throws -> Void) throws {
        if hasOpenRecord { try endRecord(nil, record) }
    }

    private mutating func endField() {
        fieldEnds.append(content.count)
        fieldQuoted.append(quoted)
        quoted = false
        state = .fieldStart
    }

    /// Ends the record at `byte` (a line break; nil: the end of the file).
    private mutating func endRecord(_ byte: UInt8?, _ record: (CSVFieldScanner) throws -> Void) throws {
        endField()
        state = byte == 0x0D ? .afterCarriageReturn : .fieldStart
        try record(self)
        content.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        fieldQuoted.removeAll(keepingCapacity: true)
        sawNonASCII = false
        line += byte == nil ? 0 : 1
        recordLine = line
    }
}
