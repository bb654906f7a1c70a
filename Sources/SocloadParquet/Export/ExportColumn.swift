import SocloadCore

/// One column of a table as an export writes it: the Parquet field its values go in, and how a
/// database's value of it becomes a Parquet value (each value interpreted once, here).
struct ExportColumn {
    /// How the column's values are read.
    enum Kind: Equatable {
        case text, json, integer, double, boolean, date, bytes
        case timestamp(adjustedToUTC: Bool)
        case decimal(precision: Int, scale: Int)
    }

    let name: String
    let kind: Kind
    let required: Bool
    /// Values that were not of the column's type, written as NULL.
    private(set) var invalid = 0

    init(name: String, kind: Kind, required: Bool) {
        (self.name, self.kind, self.required) = (name, kind, required)
    }

    /// The kind a plan's logical type is written as (a decimal's precision and scale come from
    /// its values: `DecimalShape`).
    static func kind(of type: LogicalType) -> Kind {
        switch type {
        case .text, .geometry: return .text
        case .json: return .json
        case .integer: return .integer
        case .decimal: return .decimal(precision: 18, scale: 0)
        case .double: return .double
        case .boolean: return .boolean
        case .timestamp: return .timestamp(adjustedToUTC: true)
        case .floatingTimestamp: return .timestamp(adjustedToUTC: false)
        case .date: return .date
        }
    }

    /// The kind of a column no plan describes, from the type the database declares.
    static func kind(declared: String) -> Kind {
        let type = declared.lowercased()
        if type.contains("int") && !type.contains("interval") || type == "oid" { return .integer }
        if ["real", "double", "float"].contains(where: type.contains) { return .double }
        if type.contains("numeric") || type.contains("decimal") { return .decimal(precision: 18, scale: 0) }
        if type.hasPrefix("bool") { return .boolean }
        if type == "date" { return .date }
        if type.hasPrefix("timestamp") { return .timestamp(adjustedToUTC: type.contains("with time zone") || type == "timestamptz") }
        if type.hasPrefix("json") { return .json }
        if type.contains("blob") || type == "bytea" { return .bytes }
        return .text
    }

    /// The Parquet field of the column.
    var field: ParquetField {
        let optional = !required
        switch kind {
        case .text: return .column(name, .byteArray, .string, optional: optional)
        case .json: return .column(name, .byteArray, .json, optional: optional)
        case .bytes: return .column(name, .byteArray, nil, optional: optional)
        case .integer: return .column(name, .int64, .int64, optional: optional)
        case .double: return .column(name, .double, nil, optional: optional)
        case .boolean: return .column(name, .boolean, nil, optional: optional)
        case .date: return .column(name, .int32, .date, optional: optional)
        case .timestamp(let adjusted): return .column(name, .int64, .timestampMicros(adjustedToUTC: adjusted), optional: optional)
        case let .decimal(precision, scale):
            let logical = ParquetLogicalType.decimal(precision: precision, scale: scale)
            if precision <= 9 { return .column(name, .int32, logical, optional: optional) }
            if precision <= 18 { return .column(name, .int64, logical, optional: optional) }
            return .column(name, .fixedLenByteArray, logical, optional: optional, typeLength: 16)
        }
    }

    /// Writes `value` (of row `row`, from 1) into `buffer`: NULL as null, a value not of the
    /// column's type as null too (counted in `invalid`); either in a required column is an error.
    mutating func write(_ value: DatabaseValue, row: Int, into buffer: ColumnChunkBuffer) throws {
        if case .null = value {
            guard !required else { throw ParquetWriteError.value(column: name, row: row, reason: "NULL in a column that is NOT NULL") }
            return buffer.appendNull()
        }
        if !append(value, into: buffer) {
            guard !required else {
                throw ParquetWriteError.value(column: name, row: row, reason: "\(value) is not \(kindNoun), and the column is NOT NULL")
            }
            invalid += 1
            buffer.appendNull()
        }
    }

    /// What the column's values are, in messages.
    var kindNoun: String {
        switch kind {
        case .text, .json: return "text"
        case .bytes: return "bytes"
        case .integer: return "a whole number"
        case .double: return "a number"
        case .boolean: return "a boolean"
        case .date: return "a date"
        case .timestamp: return "a timestamp"
        case let .decimal(precision, scale): return "a decimal of \(precision) digits, \(scale) after the point"
        }
    }

    private func append(_ value: DatabaseValue, into buffer: ColumnChunkBuffer) -> Bool {
        switch (kind, value) {
        case (.text, .text(let text)), (.json, .text(let text)): buffer.append(string: text)
        case (.text, .integer(let number)): buffer.append(string: String(number))
        case (.text, .real(let number)): buffer.append(string: String(number))
        case (.bytes, .blob(let data)): data.withUnsafeBytes { buffer.append(bytes: $0) }
        case (.bytes, .text(let text)): buffer.append(string: text)
        case (.integer, .integer(let number)): buffer.append(int64: number)
        case (.integer, .real(let number)):
            guard number.rounded() == number, let whole = Int64(exactly: number) else { return false }
            buffer.append(int64: whole)
        case (.integer, .text(let text)):
            guard let whole = Int64(text) else { return false }
            buffer.append(int64: whole)
        case (.double, .real(let number)): buffer.append(double: number)
        case (.double, .integer(let number)): buffer.append(double: Double(number))
        case (.double, .text(let text)):
            guard let number = Double(text) else { return false }
            buffer.append(double: number)
        case (.boolean, .integer(let number)) where number == 0 || number == 1: buffer.append(bool: number == 1)
        case (.boolean, .text(let text)):
            switch text.lowercased() {
            case "true", "t", "1": buffer.append(bool: true)
            case "false", "f", "0": buffer.append(bool: false)
            default: return false
            }
        case (.date, .text(let text)):
            var text = text
            guard let days = text.withUTF8({ ISO8601Timestamp.days(utf8: $0) }), let day = Int32(exactly: days) else { return false }
            buffer.append(int32: day)
        case (.timestamp(let adjusted), .text(let text)):
            var text = text
            guard let micros = text.withUTF8({ ISO8601Timestamp.microseconds(utf8: $0, applyingZone: adjusted) }) else { return false }
            buffer.append(int64: micros)
        case let (.decimal(precision, scale), value):
            guard let exact = Self.decimal(value), let units = exact.units(atScale: scale),
                  exact.integerDigits + scale <= precision else { return false }
            if precision <= 9 { buffer.append(int32: Int32(units)) } else if precision <= 18 { buffer.append(int64: Int64(units)) } else {
                buffer.append(decimalUnits: units)
            }
        default: return false
        }
        return true
    }

    /// A database's number or text as an exact decimal (a double by its shortest form).
    static func decimal(_ value: DatabaseValue) -> ExactDecimal? {
        switch value {
        case .integer(let number): return ExactDecimal(String(number))
        case .real(let number): return number.isFinite ? ExactDecimal("\(number)") : nil
        case .text(let text): return ExactDecimal(text.trimmingCharacters(in: .whitespaces))
        case .null, .blob: return nil
        }
    }
}
