/// A Parquet file's columns as the format describes them: physical types (how values are
/// stored), logical types (what they mean), nullability, and groups of columns (GeoParquet's
/// bbox covering column is one).
public enum ParquetPhysicalType: Int32, Sendable {
    case boolean = 0, int32 = 1, int64 = 2, float = 4, double = 5, byteArray = 6, fixedLenByteArray = 7
}

/// What a column's values mean, beyond their physical type.
public enum ParquetLogicalType: Sendable, Equatable {
    /// UTF-8 text (BYTE_ARRAY).
    case string
    /// UTF-8 JSON text (BYTE_ARRAY).
    case json
    /// Days since 1970-01-01 (INT32).
    case date
    /// A decimal: the stored integer divided by 10^scale (INT32, INT64 or FIXED_LEN_BYTE_ARRAY).
    case decimal(precision: Int, scale: Int)
    /// Microseconds since 1970-01-01T00:00 (INT64): an instant when adjusted to UTC, else a
    /// wall-clock time with no zone.
    case timestampMicros(adjustedToUTC: Bool)
    /// A signed whole number of 64 bits (INT64).
    case int64
}

/// One field of the schema: a column of values, or a group of fields.
public struct ParquetField: Sendable {
    public enum Content: Sendable {
        case column(ParquetPhysicalType, ParquetLogicalType?, typeLength: Int?)
        case group([ParquetField])
    }

    public var name: String
    public var optional: Bool
    public var content: Content

    /// A column: `physical` values meaning `logical`; `typeLength` for FIXED_LEN_BYTE_ARRAY.
    public static func column(_ name: String, _ physical: ParquetPhysicalType, _ logical: ParquetLogicalType? = nil,
                              optional: Bool = true, typeLength: Int? = nil) -> ParquetField {
        ParquetField(name: name, optional: optional, content: .column(physical, logical, typeLength: typeLength))
    }

    /// A group of fields (a struct), itself optional or not.
    public static func group(_ name: String, _ fields: [ParquetField], optional: Bool = true) -> ParquetField {
        ParquetField(name: name, optional: optional, content: .group(fields))
    }
}

/// A column as a file stores it: its path through the groups and its largest definition level
/// (the optional fields along the path: a value is present at that level, null below it).
public struct ParquetLeaf: Sendable {
    public let path: [String]
    public let physical: ParquetPhysicalType
    public let logical: ParquetLogicalType?
    public let typeLength: Int?
    public let maxDefinitionLevel: Int

    /// The leaves of `fields`, depth first, in the order their values are written.
    public static func leaves(of fields: [ParquetField], path: [String] = [], level: Int = 0) -> [ParquetLeaf] {
        fields.flatMap { field -> [ParquetLeaf] in
            let depth = level + (field.optional ? 1 : 0)
            switch field.content {
            case let .column(physical, logical, typeLength):
                return [ParquetLeaf(path: path + [field.name], physical: physical, logical: logical, typeLength: typeLength,
                                    maxDefinitionLevel: depth)]
            case .group(let children):
                return leaves(of: children, path: path + [field.name], level: depth)
            }
        }
    }
}

extension ThriftCompactWriter {
    /// The schema as FileMetaData's list of SchemaElement: the root, then each field depth first.
    mutating func schema(_ fields: [ParquetField]) {
        func count(_ fields: [ParquetField]) -> Int {
            fields.reduce(0) { total, field in
                if case .group(let children) = field.content { return total + 1 + count(children) }
                return total + 1
            }
        }
        beginList(2, of: .structure, count: 1 + count(fields))
        beginElement()
        field(4, string: "schema")
        field(5, i32: Int32(fields.count))
        stop()
        func write(_ fields: [ParquetField]) {
            for item in fields {
                beginElement()
                switch item.content {
                case let .column(physical, logical, typeLength):
                    field(1, i32: physical.rawValue)
                    if let typeLength { field(2, i32: Int32(typeLength)) }
                    field(3, i32: item.optional ? 1 : 0)
                    field(4, string: item.name)
                    schemaTypeFields(logical)
                    stop()
                case .group(let children):
                    field(3, i32: item.optional ? 1 : 0)
                    field(4, string: item.name)
                    field(5, i32: Int32(children.count))
                    stop()
                    write(children)
                }
            }
        }
        write(fields)
    }

    /// SchemaElement's converted_type (6), scale (7), precision (8) and logicalType (10).
    private mutating func schemaTypeFields(_ logical: ParquetLogicalType?) {
        guard let logical else { return }
        // The legacy converted type, for readers that know no logical types (none for a
        // timestamp not adjusted to UTC: TIMESTAMP_MICROS means an instant).
        switch logical {
        case .string: field(6, i32: 0)
        case .json: field(6, i32: 19)
        case .date: field(6, i32: 6)
        case let .decimal(precision, scale):
            field(6, i32: 5)
            field(7, i32: Int32(scale))
            field(8, i32: Int32(precision))
        case .timestampMicros(let adjusted): if adjusted { field(6, i32: 10) }
        case .int64: field(6, i32: 18)
        }
        beginStruct(10)
        switch logical {
        case .string: beginStruct(1); stop()
        case .json: beginStruct(12); stop()
        case .date: beginStruct(6); stop()
        case let .decimal(precision, scale):
            beginStruct(5)
            field(1, i32: Int32(scale))
            field(2, i32: Int32(precision))
            stop()
        case .timestampMicros(let adjusted):
            beginStruct(8)
            field(1, bool: adjusted)
            beginStruct(2)
            beginStruct(2) // MICROS
            stop()
            stop()
            stop()
        case .int64:
            beginStruct(10)
            field(1, i8: 64)
            field(2, bool: true)
            stop()
        }
        stop()
    }
}
