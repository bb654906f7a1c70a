/// Converted rows on their way from the parsing thread to a destination: the values of many rows
/// in column order, their text as byte ranges of one arena. Compact, and handed to the database
/// straight from the arena, without a String per cell.
public struct RowBatch: Sendable {
    public enum Value: Sendable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        /// UTF-8 text at `arena[offset ..< offset + length]`.
        case text(offset: Int32, length: Int32)
        /// A decimal number's digits (`-12.50`, `1.5e3`; no `$`, `,` or spaces) in the arena, kept
        /// as the source wrote them so a destination with exact decimals loses none.
        case decimal(offset: Int32, length: Int32)
        /// A decimal number read once into units and a scale (`ScaledDecimal`): what the
        /// converter gives a destination that keeps decimal digits whenever the number fits 64
        /// bits of units; longer ones arrive as `.decimal` digits.
        case scaledDecimal(ScaledDecimal)
        /// A fixed timestamp: microseconds since 1970-01-01T00:00:00Z, read once by the converter
        /// (`ISO8601Timestamp.microseconds(utf8:applyingZone:)`). A destination writes it in its
        /// own form: ISO-8601 text with a `Z` (`ISO8601Timestamp.write(microseconds:zone:into:)`)
        /// or a binary instant.
        case instant(microseconds: Int64)
        /// A floating timestamp (Socrata's `calendar_date`): the wall-clock time as written, in
        /// microseconds since 1970-01-01T00:00 of that clock, no zone applied. A destination
        /// writes it as ISO-8601 text without a `Z` or as a binary timestamp without a zone.
        case wallClock(microseconds: Int64)
        /// UTF-8 text at `arena[offset ..< offset + length]` that the converter checked is one
        /// complete JSON value (an array, an object, a number, true or false): a destination that
        /// stores JSON as such (PostgreSQL's jsonb) writes it as it is, without parsing it again.
        case json(offset: Int32, length: Int32)
        /// A date: days since 1970-01-01, read once by the converter; a destination writes it as
        /// `YYYY-MM-DD` text (`ISO8601Timestamp.write(day:into:)`) or as a binary date.
        case day(Int32)

        /// The microseconds of a fixed or floating timestamp; nil for any other value.
        @inlinable public var timestampMicroseconds: Int64? {
            switch self {
            case .instant(let microseconds), .wallClock(let microseconds): return microseconds
            default: return nil
            }
        }

        /// True for `.null` (without the generic `==`, on the converter's hot path).
        @inlinable public var isNull: Bool {
            if case .null = self { return true }
            return false
        }
    }

    public let columnCount: Int
    /// The 1-based number of the first row in the dataset, for error messages.
    public let firstRowNumber: Int
    /// The text of the values, in one buffer. (Settable: the converter, in another module,
    /// appends to it through inlined code; a batch is a value, so a copy of it is yours alone.)
    public var arena: [UInt8] = []
    public var values: [Value] = []

    public init(columnCount: Int, firstRowNumber: Int, expectedRows: Int) {
        self.columnCount = columnCount
        self.firstRowNumber = firstRowNumber
        values.reserveCapacity(columnCount * expectedRows)
        arena.reserveCapacity(512 * expectedRows)
    }

    public var rowCount: Int { columnCount == 0 ? 0 : values.count / columnCount }

    // The append functions are inlinable: the converter (another module) calls them for every
    // cell, and specialized there they copy bytes without generic dispatch.

    @inlinable
    package mutating func appendBytes<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let offset = arena.count
        arena.append(contentsOf: bytes)
        values.append(.text(offset: Int32(offset), length: Int32(arena.count - offset)))
    }

    @inlinable
    package mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes($0) }
    }

    @inlinable
    package mutating func appendDecimal(_ digits: UnsafeBufferPointer<UInt8>) {
        let offset = arena.count
        arena.append(contentsOf: digits)
        values.append(.decimal(offset: Int32(offset), length: Int32(arena.count - offset)))
    }

    /// Removes the values of a partly appended row.
    @inlinable
    package mutating func truncate(toValueCount count: Int) {
        values.removeLast(values.count - count)
    }

    /// Appends the rows of a batch of the same columns after this one's (its text moved into
    /// this arena): a writer that works best on large batches gathers small ones.
    public mutating func append(_ other: RowBatch) {
        precondition(other.columnCount == columnCount, "a batch of \(other.columnCount) columns appended to one of \(columnCount)")
        let shift = Int32(arena.count)
        arena.append(contentsOf: other.arena)
        values.reserveCapacity(values.count + other.values.count)
        for value in other.values {
            switch value {
            case let .text(offset, length): values.append(.text(offset: offset + shift, length: length))
            case let .decimal(offset, length): values.append(.decimal(offset: offset + shift, length: length))
            case let .json(offset, length): values.append(.json(offset: offset + shift, length: length))
            default: values.append(value)
            }
        }
    }

    /// The rows at `rows` (places in this batch, ascending), sharing this batch's text: what a
    /// refresh in place writes of a batch. Its first row number is the first chosen row's.
    public func selecting(rows: [Int]) -> RowBatch {
        var selected = RowBatch(columnCount: columnCount, firstRowNumber: firstRowNumber + (rows.first ?? 0), expectedRows: 0)
        selected.arena = arena
        selected.values.reserveCapacity(rows.count * columnCount)
        for row in rows { selected.values.append(contentsOf: values[(row * columnCount)..<((row + 1) * columnCount)]) }
        return selected
    }

    /// The text of a `.text` or `.decimal` value.
    public func string(offset: Int32, length: Int32) -> String {
        String(decoding: arena[Int(offset)..<Int(offset + length)], as: UTF8.self)
    }

    /// A hash of one row's values, their text hashed from the arena (no String is made).
    package func hashOfRow(_ index: Int) -> Int {
        var hasher = Hasher()
        arena.withUnsafeBytes { arena in
            for value in values[(index * columnCount)..<((index + 1) * columnCount)] {
                switch value {
                case .null: hasher.combine(0)
                case .integer(let integer): hasher.combine(1); hasher.combine(integer)
                case .real(let real): hasher.combine(2); hasher.combine(real)
                case .instant(let microseconds): hasher.combine(4); hasher.combine(microseconds)
                case .wallClock(let microseconds): hasher.combine(6); hasher.combine(microseconds)
                case .scaledDecimal(let decimal): hasher.combine(7); hasher.combine(decimal)
                case .day(let day): hasher.combine(5); hasher.combine(day)
                case let .text(offset, length), let .decimal(offset, length), let .json(offset, length):
                    hasher.combine(3)
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)]))
                }
            }
        }
        return hasher.finalize()
    }

    /// One row's values (for tests, dry runs and slow paths).
    public func row(_ index: Int) -> [CellValue] {
        values[(index * columnCount)..<((index + 1) * columnCount)].map(cellValue)
    }

    /// The value of one cell, as an ordinary Swift value.
    public func cell(row: Int, column: Int) -> CellValue {
        cellValue(values[row * columnCount + column])
    }

    private func cellValue(_ value: Value) -> CellValue {
        switch value {
        case .null: return .null
        case .integer(let integer): return .integer(integer)
        case .real(let real): return .real(real)
        case let .text(offset, length), let .json(offset, length): return .text(string(offset: offset, length: length))
        case let .decimal(offset, length): return .decimal(string(offset: offset, length: length))
        case let .scaledDecimal(decimal): return .decimal(decimal.text)
        case let .instant(microseconds): return .text(ISO8601Timestamp.format(microseconds: microseconds, zone: true))
        case let .wallClock(microseconds): return .text(ISO8601Timestamp.format(microseconds: microseconds, zone: false))
        case let .day(day): return .text(ISO8601Timestamp.format(day: day))
        }
    }
}

/// One converted value, as an ordinary Swift value.
public enum CellValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// A decimal number's digits as the source wrote them (`$`, `,` and spaces removed).
    case decimal(String)

    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return JSONValue.quoted(value)
        case .decimal(let value): return value
        }
    }
}

extension RowBatch {
    /// A `.decimal` value as the nearest number a binary database stores: an integer when the
    /// digits are a whole number that fits in 64 bits, else a double.
    public func numericValue(ofDecimalAt offset: Int32, length: Int32) -> CellValue {
        arena.withUnsafeBufferPointer { arena in
            let digits = UnsafeBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)])
            if let integer = DecimalText.integer(digits) { return .integer(integer) }
            let real = DecimalText.parseReal(digits) ?? .nan
            if real == real.rounded(), abs(real) < 9.2e18, let integer = Int64(exactly: real) { return .integer(integer) }
            return .real(real)
        }
    }
}
