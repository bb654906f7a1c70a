import SocloadSocrata

/// Writes rows in PostgreSQL's binary COPY format (`COPY ... FROM STDIN (FORMAT binary)`): per row
/// a field count, then per field its length and its bytes in the type's binary form. The server
/// then parses nothing as text, which measured faster than CSV or text COPY.
struct PostgreSQLCopyEncoder {
    /// The plan column's logical types, in column order.
    let types: [LogicalType]
    let columnNames: [String]
    /// PostGIS columns written after the plan's columns.
    let geometries: [PostgreSQLGeometryColumn]
    /// Per geometry column: values that could not be read as one (left NULL), and the first row.
    private(set) var unreadableGeometries: [Int: (count: Int, firstRow: Int)] = [:]

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
    func geometryNotes(table: String) -> [String] {
        unreadableGeometries.sorted { $0.key < $1.key }.map { index, found in
            let geometry = geometries[index]
            return "\(table).\(geometry.name): \(found.count) value\(found.count == 1 ? "" : "s") could not be read as a geometry "
                + "(left NULL); first at row \(found.firstRow)"
        }
    }

    /// Appends every row of `batch` to `buffer`.
    mutating func encode(_ batch: RowBatch, into buffer: inout [UInt8]) throws {
        buffer.reserveCapacity(buffer.count + batch.arena.count + batch.values.count * 12 + batch.rowCount * 2)
        try batch.arena.withUnsafeBufferPointer { arena in
            for row in 0..<batch.rowCount {
                buffer.appendBigEndian(UInt16(types.count + geometries.count))
                let first = row * batch.columnCount
                for column in 0..<types.count {
                    try encode(batch.values[first + column], types[column], arena, into: &buffer) {
                        LoadError.constraint(row: batch.firstRowNumber + row,
                                             message: "\(columnNames[column]): PostgreSQL cannot take \($0)")
                    }
                }
                for (index, geometry) in geometries.enumerated() {
                    if let bytes = geometry.value(row: row, of: batch, arena: arena) {
                        buffer.appendBigEndian(UInt32(bytes.count))
                        buffer.append(contentsOf: bytes)
                    } else {
                        buffer.appendBigEndian(UInt32(bitPattern: -1))
                        if geometry.hasSource(row: row, of: batch) {
                            let found = unreadableGeometries[index] ?? (0, batch.firstRowNumber + row)
                            unreadableGeometries[index] = (found.count + 1, found.firstRow)
                        }
                    }
                }
            }
        }
    }

    private func encode(_ value: RowBatch.Value, _ type: LogicalType, _ arena: UnsafeBufferPointer<UInt8>,
                        into buffer: inout [UInt8], failure: (String) -> LoadError) throws {
        func bytes(_ offset: Int32, _ length: Int32) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)])
        }
        switch (value, type) {
        case (.null, _):
            buffer.appendBigEndian(UInt32(bitPattern: -1))
        case let (.text(offset, length), .text), let (.text(offset, length), .geometry),
             let (.decimal(offset, length), .text), let (.decimal(offset, length), .geometry):
            buffer.appendBigEndian(UInt32(length))
            buffer.append(contentsOf: bytes(offset, length))
        case let (.text(offset, length), .json):
            PostgreSQLJSONB.append(bytes(offset, length), to: &buffer)
        case let (.integer(integer), .integer):
            buffer.appendBigEndian(UInt32(8))
            buffer.appendBigEndian(UInt64(bitPattern: integer))
        case let (.integer(integer), .boolean):
            buffer.appendBigEndian(UInt32(1))
            buffer.append(integer != 0 ? 1 : 0)
        case let (.real(real), .double):
            buffer.appendBigEndian(UInt32(8))
            buffer.appendBigEndian(real.bitPattern)
        case let (.integer(integer), .double):
            buffer.appendBigEndian(UInt32(8))
            buffer.appendBigEndian(Double(integer).bitPattern)
        case let (.decimal(offset, length), .decimal):
            guard PostgreSQLNumeric.append(digits: bytes(offset, length), to: &buffer) else {
                throw failure("the number \(String(decoding: bytes(offset, length).prefix(40), as: UTF8.self))")
            }
        case let (.integer(integer), .decimal):
            var digits = String(integer)
            _ = digits.withUTF8 { PostgreSQLNumeric.append(digits: $0, to: &buffer) }
        case let (.real(real), .decimal) where real.isFinite:
            var digits = String(real)
            _ = digits.withUTF8 { PostgreSQLNumeric.append(digits: $0, to: &buffer) }
        case let (.text(offset, length), .timestamp), let (.text(offset, length), .floatingTimestamp):
            guard let micros = PostgreSQLTimeText.microseconds(bytes(offset, length), applyingZone: type == .timestamp) else {
                throw failure("the timestamp \(String(decoding: bytes(offset, length).prefix(40), as: UTF8.self))")
            }
            buffer.appendBigEndian(UInt32(8))
            buffer.appendBigEndian(UInt64(bitPattern: micros))
        case let (.text(offset, length), .date):
            guard let days = PostgreSQLTimeText.days(bytes(offset, length)) else {
                throw failure("the date \(String(decoding: bytes(offset, length).prefix(40), as: UTF8.self))")
            }
            buffer.appendBigEndian(UInt32(4))
            buffer.appendBigEndian(UInt32(bitPattern: days))
        case let (.integer(integer), .text), let (.integer(integer), .geometry), let (.integer(integer), .json):
            var text = String(integer)
            text.withUTF8 { appendText($0, type, &buffer) }
        case let (.real(real), .text), let (.real(real), .geometry), let (.real(real), .json):
            var text = String(real)
            text.withUTF8 { appendText($0, type, &buffer) }
        default:
            throw failure("a \(Self.kind(of: value)) in a \(PostgreSQLTypes.declaredType(type)) column")
        }
    }

    private func appendText(_ text: UnsafeBufferPointer<UInt8>, _ type: LogicalType, _ buffer: inout [UInt8]) {
        if type == .json {
            PostgreSQLJSONB.append(text, to: &buffer)
        } else {
            buffer.appendBigEndian(UInt32(text.count))
            buffer.append(contentsOf: text)
        }
    }

    private static func kind(of value: RowBatch.Value) -> String {
        switch value {
        case .null: return "NULL"
        case .integer: return "whole number"
        case .real: return "floating-point number"
        case .text: return "text"
        case .decimal: return "decimal number"
        }
    }
}

/// jsonb's binary form: a version byte (1), then the JSON text. A value that is not JSON (the
/// plan's JSON columns keep a plain string as itself) is sent as a JSON string.
enum PostgreSQLJSONB {
    static func append(_ text: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        if JSONValueParser.isJSON(text) {
            buffer.appendBigEndian(UInt32(text.count + 1))
            buffer.append(1)
            buffer.append(contentsOf: text)
        } else {
            let quoted = Array(JSONValue.quoted(String(decoding: text, as: UTF8.self)).utf8)
            buffer.appendBigEndian(UInt32(quoted.count + 1))
            buffer.append(1)
            buffer.append(contentsOf: quoted)
        }
    }
}

extension Array where Element == UInt8 {
    @inline(__always)
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
