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
}
