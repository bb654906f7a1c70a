import SocloadCore

/// Writes rows in PostgreSQL's binary COPY format (`COPY ... FROM STDIN (FORMAT binary)`): per row
/// a field count, then per field its length and its bytes in the type's binary form. The server
/// then parses nothing as text, which measured faster than CSV or text COPY.
struct PostgreSQLCopyEncoder {
    /// The plan column's logical types, in column order.
    let types: [LogicalType]
    let columnNames: [String]
    /// PostGIS columns written after the plan's columns.
    let geometries: [PostgreSQLGeometryColumn]
    /// Values that could not be read as a geometry (left NULL).
    private(set) var unreadableGeometries = UnreadableGeometries()

    /// What a binary COPY starts with: signature, flags, header extension length.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// What it ends with: a field count of -1.
    static let trailer: [UInt8] = [0xFF, 0xFF]

    init(table: PlanTable, geometries: [PostgreSQLGeometryColumn] = []) {
        types = table.columns.map(\.type)
        columnNames = table.columns.map(\.name)
        self.geometries = geometries
    }

    /// One line per geometry column that had values it could not read.
    func geometryNotes(table: String) -> [String] { unreadableGeometries.notes(table: table) }

    /// Appends every row of `batch` to `buffer`.
    mutating func encode(_ batch: RowBatch, into buffer: CopyBuffer) throws {
        buffer.reserve(batch.arena.count + batch.values.count * 12 + batch.rowCount * 2)
        let fieldCount = UInt16(types.count + geometries.count)
        try batch.arena.withUnsafeBufferPointer { arena in
            var index = 0
            for row in 0..<batch.rowCount {
                buffer.write(fieldCount)
                index = row * batch.columnCount
                for column in 0..<types.count {
                    if let refusal = Self.encode(batch.values[index + column], types[column], arena, into: buffer) {
                        throw LoadError.constraint(row: batch.firstRowNumber + row,
                                                   message: "\(columnNames[column]): PostgreSQL cannot take \(refusal)")
                    }
                }
                for geometry in geometries {
                    if let bytes = geometry.value(row: row, of: batch, arena: arena) {
                        bytes.withUnsafeBufferPointer { buffer.field($0) }
                    } else {
                        buffer.null()
                        if geometry.hasSource(row: row, of: batch) {
                            unreadableGeometries.count(column: geometry.name, row: batch.firstRowNumber + row)
                        }
                    }
                }
            }
        }
    }

    /// Writes one value as a field of the column's type; returns what was refused instead (nil
    /// when written).
    private static func encode(_ value: RowBatch.Value, _ type: LogicalType, _ arena: UnsafeBufferPointer<UInt8>,
                               into buffer: CopyBuffer) -> String? {
        @inline(__always) func bytes(_ offset: Int32, _ length: Int32) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)])
        }
        func shown(_ offset: Int32, _ length: Int32) -> String {
            String(decoding: bytes(offset, length).prefix(40), as: UTF8.self)
        }
        switch (value, type) {
        case (.null, _):
            buffer.null()
        case let (.text(offset, length), .text), let (.text(offset, length), .geometry),
             let (.decimal(offset, length), .text), let (.decimal(offset, length), .geometry):
            buffer.field(bytes(offset, length))
        case let (.json(offset, length), .json):
            PostgreSQLJSONB.write(validJSON: bytes(offset, length), to: buffer)
        case let (.text(offset, length), .json):
            PostgreSQLJSONB.write(bytes(offset, length), to: buffer)
        case let (.json(offset, length), .text), let (.json(offset, length), .geometry):
            buffer.field(bytes(offset, length))
        case let (.integer(integer), .integer):
            buffer.write(UInt32(8))
            buffer.write(UInt64(bitPattern: integer))
        case let (.integer(integer), .boolean):
            buffer.write(UInt32(1))
            buffer.write(UInt8(integer != 0 ? 1 : 0))
        case let (.real(real), .double):
            buffer.write(UInt32(8))
            buffer.write(real.bitPattern)
        case let (.integer(integer), .double):
            buffer.write(UInt32(8))
            buffer.write(Double(integer).bitPattern)
        case let (.decimal(offset, length), .decimal):
            guard PostgreSQLNumeric.write(digits: bytes(offset, length), to: buffer) else {
                return "the number \(shown(offset, length))"
            }
        case let (.scaledDecimal(decimal), .decimal):
            guard PostgreSQLNumeric.write(decimal, to: buffer) else { return "the number \(decimal.text)" }
        case let (.scaledDecimal(decimal), .text), let (.scaledDecimal(decimal), .geometry):
            var text = decimal.text
            text.withUTF8 { buffer.field($0) }
        case let (.integer(integer), .decimal):
            var digits = String(integer)
            _ = digits.withUTF8 { PostgreSQLNumeric.write(digits: $0, to: buffer) }
        case let (.real(real), .decimal) where real.isFinite:
            var digits = String(real)
            _ = digits.withUTF8 { PostgreSQLNumeric.write(digits: $0, to: buffer) }
        case let (.instant(microseconds), .timestamp), let (.wallClock(microseconds), .floatingTimestamp):
            // The converter read it once: microseconds since 1970, written as microseconds since 2000.
            let (micros, overflow) = microseconds.subtractingReportingOverflow(PostgreSQLTimeText.epochMicroseconds)
            guard !overflow else { return "the timestamp \(ISO8601Timestamp.format(microseconds: microseconds, zone: type == .timestamp))" }
            buffer.write(UInt32(8))
            buffer.write(UInt64(bitPattern: micros))
        case let (.day(day), .date):
            buffer.write(UInt32(4))
            buffer.write(UInt32(bitPattern: day - Int32(PostgreSQLTimeText.epochDays)))
        case let (.day(day), .text), let (.day(day), .geometry):
            var text = ISO8601Timestamp.format(day: day)
            text.withUTF8 { buffer.field($0) }
        case let (.instant(microseconds), .text), let (.instant(microseconds), .geometry):
            var text = ISO8601Timestamp.format(microseconds: microseconds, zone: true)
            text.withUTF8 { buffer.field($0) }
        case let (.wallClock(microseconds), .text), let (.wallClock(microseconds), .geometry):
            var text = ISO8601Timestamp.format(microseconds: microseconds, zone: false)
            text.withUTF8 { buffer.field($0) }
        case let (.text(offset, length), .timestamp), let (.text(offset, length), .floatingTimestamp):
            guard let micros = PostgreSQLTimeText.microseconds(bytes(offset, length), applyingZone: type == .timestamp) else {
                return "the timestamp \(shown(offset, length))"
            }
            buffer.write(UInt32(8))
            buffer.write(UInt64(bitPattern: micros))
        case let (.text(offset, length), .date):
            guard let days = PostgreSQLTimeText.days(bytes(offset, length)) else {
                return "the date \(shown(offset, length))"
            }
            buffer.write(UInt32(4))
            buffer.write(UInt32(bitPattern: days))
        case let (.integer(integer), .text), let (.integer(integer), .geometry), let (.integer(integer), .json):
            var text = String(integer)
            text.withUTF8 { type == .json ? PostgreSQLJSONB.write($0, to: buffer) : buffer.field($0) }
        case let (.real(real), .text), let (.real(real), .geometry), let (.real(real), .json):
            var text = String(real)
            text.withUTF8 { type == .json ? PostgreSQLJSONB.write($0, to: buffer) : buffer.field($0) }
        default:
            return "a \(kind(of: value)) in a \(PostgreSQLTypes.declaredType(type)) column"
        }
        return nil
    }

    private static func kind(of value: RowBatch.Value) -> String {
        switch value {
        case .null: return "NULL"
        case .integer: return "whole number"
        case .real: return "floating-point number"
        case .text: return "text"
        case .decimal, .scaledDecimal: return "decimal number"
        case .instant, .wallClock: return "timestamp"
        case .json: return "JSON value"
        case .day: return "date"
        }
    }
}

/// jsonb's binary form: a version byte (1), then the JSON text. A value that is not JSON (the
/// plan's JSON columns keep a plain string as itself) is sent as a JSON string.
enum PostgreSQLJSONB {
    /// Text the converter already checked is JSON (`RowBatch.Value.json`).
    static func write(validJSON text: UnsafeBufferPointer<UInt8>, to buffer: CopyBuffer) {
        buffer.write(UInt32(text.count + 1))
        buffer.write(UInt8(1))
        buffer.write(text)
    }

    /// A string's content: JSON when it is one, else a JSON string.
    static func write(_ text: UnsafeBufferPointer<UInt8>, to buffer: CopyBuffer) {
        if JSONValueParser.isJSON(text) {
            write(validJSON: text, to: buffer)
        } else {
            let quoted = Array(JSONValue.quoted(String(decoding: text, as: UTF8.self)).utf8)
            buffer.write(UInt32(quoted.count + 1))
            buffer.write(UInt8(1))
            buffer.write(quoted)
        }
    }
}

