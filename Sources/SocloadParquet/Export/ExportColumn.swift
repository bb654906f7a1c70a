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

    /// Writes the value at `column` of `values` (row `row`, from 1) into `buffer`: NULL as
    /// null, a value not of the column's type as null too (counted in `invalid`); either in a
    /// required column is an error.
    mutating func write(_ values: any ResultRow, column: Int, row: Int, into buffer: ColumnChunkBuffer) throws {
        if values.kind(column) == .null {
            guard !required else { throw ParquetWriteError.value(column: name, row: row, reason: "NULL in a column that is NOT NULL") }
            return buffer.appendNull()
        }
        if !append(values, column: column, into: buffer) {
            guard !required else {
                throw ParquetWriteError.value(column: name, row: row, reason: "\(values.value(column)) is not \(kindNoun), and the column is NOT NULL")
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

    private func append(_ values: any ResultRow, column: Int, into buffer: ColumnChunkBuffer) -> Bool {
        let stored = values.kind(column)
        switch (kind, stored) {
        case (.text, .text), (.bytes, .text), (.bytes, .blob): values.withBytes(column) { buffer.append(bytes: $0) }
        case (.json, .text):
            // A JSON column keeps a plain string as itself (the plan's rule): in the file, where
            // every value must be JSON, such a text is the JSON string it stands for.
            values.withBytes(column) { bytes in
                if JSONSyntax.isOneValue(bytes.bindMemory(to: UInt8.self)) {
                    buffer.append(bytes: bytes)
                } else {
                    buffer.append(string: JSONValue.string(String(decoding: bytes, as: UTF8.self)).jsonText)
                }
            }
        case (.text, .integer): buffer.append(string: String(values.integer(column)))
        case (.text, .real): buffer.append(string: String(values.real(column)))
        case (.integer, .integer): buffer.append(int64: values.integer(column))
        case (.integer, .real):
            let number = values.real(column)
            guard number.rounded() == number, let whole = Int64(exactly: number) else { return false }
            buffer.append(int64: whole)
        case (.integer, .text):
            guard let whole = values.withBytes(column, { Int64(String(decoding: $0, as: UTF8.self)) }) else { return false }
            buffer.append(int64: whole)
        case (.double, .real): buffer.append(double: values.real(column))
        case (.double, .integer): buffer.append(double: Double(values.integer(column)))
        case (.double, .text):
            guard let number = values.withBytes(column, { Double(String(decoding: $0, as: UTF8.self)) }) else { return false }
            buffer.append(double: number)
        case (.boolean, .integer):
            let number = values.integer(column)
            guard number == 0 || number == 1 else { return false }
            buffer.append(bool: number == 1)
        case (.boolean, .text):
            switch values.withBytes(column, { String(decoding: $0, as: UTF8.self) }).lowercased() {
            case "true", "t", "1": buffer.append(bool: true)
            case "false", "f", "0": buffer.append(bool: false)
            default: return false
            }
        case (.date, .text):
            guard let days = values.withBytes(column, { ISO8601Timestamp.days(utf8: $0.bindMemory(to: UInt8.self)) }),
                  let day = Int32(exactly: days) else { return false }
            buffer.append(int32: day)
        case (.timestamp(let adjusted), .text):
            guard let micros = values.withBytes(column, {
                ISO8601Timestamp.microseconds(utf8: $0.bindMemory(to: UInt8.self), applyingZone: adjusted)
            }) else { return false }
            buffer.append(int64: micros)
        case let (.decimal(precision, scale), _):
            guard let exact = Self.decimal(values, column: column), let units = exact.units(atScale: scale),
                  exact.integerDigits + scale <= precision else { return false }
            if precision <= 9 { buffer.append(int32: Int32(units)) } else if precision <= 18 { buffer.append(int64: Int64(units)) } else {
                buffer.append(decimalUnits: units)
            }
        default: return false
        }
        return true
    }

    /// A database's number or text as an exact decimal (a double by its shortest form).
    static func decimal(_ values: any ResultRow, column: Int) -> ExactDecimal? {
        switch values.kind(column) {
        case .integer:
            let number = values.integer(column)
            return ExactDecimal(units: Int128(number), scale: 0, integerDigits: number == 0 ? 1 : String(number.magnitude).count)
        case .real:
            let number = values.real(column)
            return number.isFinite ? ExactDecimal("\(number)") : nil
        case .text: return values.withBytes(column) { ExactDecimal(bytes: $0) }
        case .null, .blob: return nil
        }
    }
}
