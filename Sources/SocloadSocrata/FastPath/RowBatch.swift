import SocloadDatabase

/// Converted rows on their way from the parsing thread to the database: the values of many rows
/// in column order, their text as byte ranges of one arena. Compact, and bound to SQLite straight
/// from the arena, without a String per cell.
public struct RowBatch: Sendable {
    public enum Value: Sendable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        /// UTF-8 text at `arena[offset ..< offset + length]`.
        case text(offset: Int32, length: Int32)
    }

    public let columnCount: Int
    /// The 1-based number of the first row in the dataset, for error messages.
    public let firstRowNumber: Int
    public internal(set) var arena: [UInt8] = []
    public internal(set) var values: [Value] = []

    init(columnCount: Int, firstRowNumber: Int, expectedRows: Int) {
        self.columnCount = columnCount
        self.firstRowNumber = firstRowNumber
        values.reserveCapacity(columnCount * expectedRows)
        arena.reserveCapacity(512 * expectedRows)
    }

    public var rowCount: Int { columnCount == 0 ? 0 : values.count / columnCount }

    mutating func append(_ value: DatabaseValue) {
        switch value {
        case .null: values.append(.null)
        case .integer(let integer): values.append(.integer(integer))
        case .real(let real): values.append(.real(real))
        case .text(let text): appendText(text)
        case .blob(let data): appendBytes(Array(data))
        }
    }

    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes($0) }
    }

    mutating func appendBytes<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let offset = arena.count
        arena.append(contentsOf: bytes)
        values.append(.text(offset: Int32(offset), length: Int32(arena.count - offset)))
    }

    /// Removes the values of a partly appended row (after a conversion error).
    mutating func truncate(toValueCount count: Int) {
        values.removeLast(values.count - count)
    }

    /// One row's values as `DatabaseValue`s (for tests and slow paths).
    public func row(_ index: Int) -> [DatabaseValue] {
        values[(index * columnCount)..<((index + 1) * columnCount)].map { value in
            switch value {
            case .null: return .null
            case .integer(let integer): return .integer(integer)
            case .real(let real): return .real(real)
            case let .text(offset, length):
                return .text(String(decoding: arena[Int(offset)..<Int(offset + length)], as: UTF8.self))
            }
        }
    }
}
