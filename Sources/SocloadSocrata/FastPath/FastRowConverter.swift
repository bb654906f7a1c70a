import Foundation
import SocloadDatabase

/// Converts rows.json rows straight from their bytes into a `RowBatch`, following the same rules
/// as `TableSchema.values(for:rowNumber:)` (tests check that both give the same values on every
/// fixture). Rows with shapes it does not handle (nested JSON, GeoJSON objects, non-numeric
/// numbers...) go through the general path, so results and error messages never differ.
struct FastRowConverter {
    let schema: TableSchema
    private var cells: [RawCell] = []
    private var parts: [RawCell] = []

    /// Thrown inside the fast path to hand the row to the general path.
    private struct UseGeneralPath: Error {}

    init(schema: TableSchema) {
        self.schema = schema
        cells.reserveCapacity(schema.cellCount)
        parts.reserveCapacity(8)
    }

    /// Parses and appends the row starting at `start` when it ends before `limit`, returning the
    /// index past it; nil when it continues past `limit` or looks malformed (the caller then reads
    /// it whole and calls `append(row:...)`, which reports errors precisely). Nothing is appended
    /// to the batch unless the row is complete.
    mutating func appendIfComplete(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
                                   rowNumber: Int, to batch: inout RowBatch) throws -> Int? {
        cells.removeAll(keepingCapacity: true)
        guard let end = try? RawArrayParser.array(in: bytes, from: start, limit: limit, into: &cells) else { return nil }
        let mark = batch.values.count
        do {
            guard cells.count == schema.cellCount else { throw UseGeneralPath() }
            for plan in schema.plans {
                try append(plan, bytes, &batch)
            }
            return end
        } catch is UseGeneralPath {
            batch.truncate(toValueCount: mark)
            try append(row: UnsafeBufferPointer(rebasing: bytes[start..<end]), rowNumber: rowNumber, offset: start,
                       to: &batch)
            return end
        }
    }

    /// Appends one row (the bytes of its JSON array) to `batch`.
    mutating func append(row bytes: UnsafeBufferPointer<UInt8>, rowNumber: Int, offset: Int = 0,
                         to batch: inout RowBatch) throws {
        let mark = batch.values.count
        do {
            cells.removeAll(keepingCapacity: true)
            do {
                try RawArrayParser.elements(of: bytes, in: 0..<bytes.count, into: &cells)
            } catch {
                throw UseGeneralPath()
            }
            guard cells.count == schema.cellCount else { throw UseGeneralPath() }
            for plan in schema.plans {
                try append(plan, bytes, &batch)
            }
        } catch is UseGeneralPath {
            batch.truncate(toValueCount: mark)
            let value: JSONValue
            do {
                value = try JSONValueParser.parse(bytes)
            } catch {
                throw RowsJSONError.badRow(row: rowNumber, offset: offset, detail: RowsJSONReader.describe(error, base: offset))
            }
            guard case .array(let row) = value else {
                throw RowsJSONError.badRow(row: rowNumber, offset: offset, detail: "not an array")
            }
            for converted in try schema.values(for: row, rowNumber: rowNumber) {
                batch.append(converted)
            }
        }
    }

    // MARK: - Per column

    private mutating func append(_ plan: TableSchema.CellPlan, _ bytes: UnsafeBufferPointer<UInt8>,
                                 _ batch: inout RowBatch) throws {
        switch plan {
        case let .column(index, type, subColumnTypes):
            try append(type, cells[index], subColumnTypes, bytes, &batch)
        case let .identity(sid, id):
            if let sid, cells[sid].kind == .string {
                try appendText(cells[sid], bytes, &batch)
            } else if let id, cells[id].kind == .string {
                try appendText(cells[id], bytes, &batch)
            } else {
                throw UseGeneralPath()
            }
        case let .systemTimestamp(index):
            try appendTimestamp(cells[index], bytes, &batch)
        case let .systemRaw(index):
            try appendText(cells[index], bytes, &batch)
        }
    }

    private mutating func append(_ type: ColumnType, _ cell: RawCell, _ subColumnTypes: [String]?,
                                 _ bytes: UnsafeBufferPointer<UInt8>, _ batch: inout RowBatch) throws {
        switch type {
        case .text, .geometry, .json:
            try appendText(cell, bytes, &batch)
        case .calendarDate:
            if cell.kind == .string, cell.isEscaped { throw UseGeneralPath() }
            if cell.kind == .string, let dot = Self.zeroFraction(cell, bytes) {
                batch.appendBytes(UnsafeBufferPointer(rebasing: bytes[cell.start..<dot]))
            } else {
                try appendText(cell, bytes, &batch)
            }
        case .number:
            switch cell.kind {
            case .null: batch.values.append(.null)
            case .string, .number:
                guard !cell.isEscaped, cell.count < 64 else { throw UseGeneralPath() }
                if let value = Self.number(bytes, cell.start..<cell.end) {
                    batch.values.append(value)
                } else {
                    try appendText(cell, bytes, &batch)
                }
            default: throw UseGeneralPath()
            }
        case .double:
            switch cell.kind {
            case .null: batch.values.append(.null)
            case .string, .number:
                guard !cell.isEscaped, let real = Self.real(bytes, Self.trimmed(bytes, cell.start..<cell.end)) else {
                    throw UseGeneralPath()
                }
                batch.values.append(real.isFinite ? .real(real) : .null)
            default: throw UseGeneralPath()
            }
        case .checkbox:
            switch cell.kind {
            case .true: batch.values.append(.integer(1))
            case .false: batch.values.append(.integer(0))
            case .null: batch.values.append(.null)
            default: throw UseGeneralPath()
            }
        case .timestamp:
            try appendTimestamp(cell, bytes, &batch)
        case .location:
            guard cell.kind != .null else { return batch.values.append(contentsOf: [.null, .null, .null]) }
            try split(cell, bytes)
            let address = try part("human_address", subColumnTypes, fallback: 0)
            if let address { try appendText(address, bytes, &batch) } else { batch.values.append(.null) }
            try appendCoordinate(try part("latitude", subColumnTypes, fallback: 1), bytes, &batch)
            try appendCoordinate(try part("longitude", subColumnTypes, fallback: 2), bytes, &batch)
        case .url, .phone:
            guard cell.kind != .null else { return batch.values.append(contentsOf: [.null, .null]) }
            try split(cell, bytes)
            let names = type == .url ? ("url", "description") : ("phone_number", "phone_type")
            for (name, fallback) in [(names.0, 0), (names.1, 1)] {
                if let element = try part(name, subColumnTypes, fallback: fallback) {
                    try appendText(element, bytes, &batch)
                } else {
                    batch.values.append(.null)
                }
            }
        case .point:
            switch cell.kind {
            case .null: batch.values.append(contentsOf: [.null, .null, .null])
            case .string where !cell.isEscaped:
                let wkt = String(decoding: UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]), as: UTF8.self)
                let (longitude, latitude) = CellConversion.wktPoint(wkt)
                batch.appendBytes(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]))
                batch.append(longitude)
                batch.append(latitude)
            default: throw UseGeneralPath()
            }
        }
    }

    /// The elements of an array cell, into `parts`.
    private mutating func split(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard cell.kind == .array else { throw UseGeneralPath() }
        parts.removeAll(keepingCapacity: true)
        do {
            try RawArrayParser.elements(of: bytes, in: cell.start..<cell.end, into: &parts)
        } catch {
            throw UseGeneralPath()
        }
    }

    /// The element `name` (by `subColumnTypes`, else at `fallback`), or nil when absent or null.
    private func part(_ name: String, _ subColumnTypes: [String]?, fallback: Int) throws -> RawCell? {
        let index = subColumnTypes?.firstIndex(of: name) ?? fallback
        guard index < parts.count else { return nil }
        let element = parts[index]
        if element.kind == .null { return nil }
        guard element.kind == .string || element.kind == .number else { throw UseGeneralPath() }
        return element
    }

    // MARK: - Values

    /// Text as given: a string's content (unescaped), a number's digits, true/false, or NULL.
    private func appendText(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>, _ batch: inout RowBatch) throws {
        switch cell.kind {
        case .null: batch.values.append(.null)
        case .string:
            if cell.isEscaped {
                guard JSONStringUnescaping.append(bytes, cell.start..<cell.end, to: &batch) else { throw UseGeneralPath() }
            } else {
                batch.appendBytes(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]))
            }
        case .number: batch.appendBytes(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]))
        case .true: batch.appendBytes("true".utf8)
        case .false: batch.appendBytes("false".utf8)
        case .array, .object: throw UseGeneralPath()
        }
    }

    private func appendCoordinate(_ cell: RawCell?, _ bytes: UnsafeBufferPointer<UInt8>, _ batch: inout RowBatch) throws {
        guard let cell else { return batch.values.append(.null) }
        guard !cell.isEscaped, let real = Self.real(bytes, Self.trimmed(bytes, cell.start..<cell.end)) else {
            throw UseGeneralPath()
        }
        batch.values.append(real.isFinite ? .real(real) : .null)
    }

    /// A fixed timestamp given as whole epoch seconds, written as ISO-8601 UTC.
    private func appendTimestamp(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>, _ batch: inout RowBatch) throws {
        switch cell.kind {
        case .null: batch.values.append(.null)
        case .number, .string:
            guard !cell.isEscaped, case .integer(let seconds)? = Self.number(bytes, cell.start..<cell.end, strip: false),
                  abs(seconds) < 10_000_000_000_000 else { throw UseGeneralPath() }
            let offset = batch.arena.count
            ISO8601Timestamp.appendUTF8(epochSeconds: seconds, to: &batch.arena)
            batch.values.append(.text(offset: Int32(offset), length: Int32(batch.arena.count - offset)))
        default: throw UseGeneralPath()
        }
    }

    // MARK: - Numbers from bytes

    /// The index of a `.000` fraction at the end of a `...T...` timestamp, if it has one.
    static func zeroFraction(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = cell.end - 1
        while index > cell.start, bytes[index] == UInt8(ascii: "0") { index -= 1 }
        guard index > cell.start, bytes[index] == UInt8(ascii: "."),
              bytes[cell.start..<index].contains(UInt8(ascii: "T")) else { return nil }
        return index
    }

    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// `CellConversion.number` on bytes: `$`, `,` and white space removed (when `strip`), then an
    /// integer when integral, else a real; nil when the text is no decimal number.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, strip: Bool = true) -> RowBatch.Value? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 72) { buffer -> RowBatch.Value? in
            var count = 0
            var sawPointOrExponent = false
            for index in range {
                let byte = bytes[index]
                if strip, byte == UInt8(ascii: "$") || byte == UInt8(ascii: ",") || byte <= 0x20 { continue }
                guard count < 70 else { return nil }
                if byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e") { sawPointOrExponent = true }
                buffer[count] = byte
                count += 1
            }
            let text = UnsafeBufferPointer(rebasing: buffer[0..<count])
            guard isDecimal(text) else { return nil }
            if !sawPointOrExponent, let integer = integer(text) { return .integer(integer) }
            if let real = exactDecimal(text) {
                if real == real.rounded(), abs(real) < 9.2e18, let integer = Int64(exactly: real) { return .integer(integer) }
                return .real(real)
            }
            buffer[count] = 0
            let real = strtod(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), nil)
            guard real.isFinite else { return .null }
            if real == real.rounded(), abs(real) < 9.2e18, let integer = Int64(exactly: real) { return .integer(integer) }
            return .real(real)
        }
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// `[-+]digits.digits` with at most 15 significant digits, converted exactly: the mantissa and
    /// the power of ten are both exact doubles, so one division is correctly rounded (the
    /// classic fast path of decimal conversion). Nil for anything else, which goes to strtod.
    static func exactDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawDot = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                guard !sawDot else { return nil }
                sawDot = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                if mantissa > 0 || digit > 0 { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + Int64(digit)
                if sawDot { fractionDigits += 1 }
            }
            index += 1
        }
        guard fractionDigits <= 22 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// A double from decimal text (nil for anything else: NaN, Infinity and text take the general path).
    static func real(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        guard range.count < 70, isDecimal(UnsafeBufferPointer(rebasing: bytes[range])) else { return nil }
        if let exact = exactDecimal(UnsafeBufferPointer(rebasing: bytes[range])) { return exact }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 72) { buffer in
            for (offset, index) in range.enumerated() { buffer[offset] = CChar(bitPattern: bytes[index]) }
            buffer[range.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }

    /// Optional sign and digits only, fitting in Int64.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var negative = false
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        guard index < text.count else { return nil }
        var value: Int64 = 0
        while index < text.count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (multiplied, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = negative ? multiplied.subtractingReportingOverflow(Int64(digit))
                                              : multiplied.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = added
            index += 1
        }
        return value
    }

    /// The same syntax as `CellConversion.isDecimal`, on bytes.
    static func isDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        var sawDot = false
        var sawExponent = false
        var previous: UInt8 = 0
        for (index, byte) in text.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                guard index == 0 || previous | 0x20 == UInt8(ascii: "e") else { return false }
            case UInt8(ascii: "."):
                guard !sawDot, !sawExponent else { return false }
                sawDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !sawExponent, digits > 0 else { return false }
                sawExponent = true
            default:
                return false
            }
            previous = byte
        }
        return digits > 0 && previous &- UInt8(ascii: "0") < 10 || (digits > 0 && previous == UInt8(ascii: "."))
    }
}

/// Decodes a JSON string's escapes straight into a batch's arena.
enum JSONStringUnescaping {
    /// False when an escape is malformed (the general path then reports it).
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to batch: inout RowBatch) -> Bool {
        let offset = batch.arena.count
        var index = range.lowerBound
        while index < range.upperBound {
            // Copy the run up to the next escape in one go.
            var runEnd = index
            while runEnd < range.upperBound, bytes[runEnd] != UInt8(ascii: "\\") { runEnd += 1 }
            if runEnd > index {
                batch.arena.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<runEnd]))
                index = runEnd
                continue
            }
            guard index + 1 < range.upperBound else { return false }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): batch.arena.append(escape)
            case UInt8(ascii: "n"): batch.arena.append(0x0A)
            case UInt8(ascii: "r"): batch.arena.append(0x0D)
            case UInt8(ascii: "t"): batch.arena.append(0x09)
            case UInt8(ascii: "b"): batch.arena.append(0x08)
            case UInt8(ascii: "f"): batch.arena.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(bytes, index, range.upperBound) else { return false }
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < range.upperBound, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                          let low = hex4(bytes, index + 2, range.upperBound), (0xDC00...0xDFFF).contains(low) else { return false }
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    return false
                }
                guard let unicode = Unicode.Scalar(scalar) else { return false }
                batch.arena.append(contentsOf: String(Character(unicode)).utf8)
            default:
                return false
            }
        }
        batch.values.append(.text(offset: Int32(offset), length: Int32(batch.arena.count - offset)))
        return true
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
