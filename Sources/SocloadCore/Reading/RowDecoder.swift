/// Decodes a `Decodable` value from one result row, matching properties to columns by name.
package struct RowDecoder: Decoder {
    let values: [DatabaseValue]
    let columns: ColumnLookup
    let rowIndex: Int
    /// Where the properties asked for that have no column are noted (nil: nowhere).
    var absentKeys: AbsentKeyLog?
    package var codingPath: [any CodingKey] = []
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes `T` from the row: a single-value type (String, Int?, Date, a raw-value enum...) from
    /// the first column, a type with properties by column name.
    /// A `RowDecodingError` names `statement` (the SQL read, which names the table) when given.
    package static func decode<T: Decodable>(_ type: T.Type, values: [DatabaseValue], columns: ColumnLookup,
                                     rowIndex: Int, absentKeys: AbsentKeyLog? = nil, statement: String?) throws -> T {
        do {
            return try decode(type, values: values, columns: columns, rowIndex: rowIndex, absentKeys: absentKeys)
        } catch let error as RowDecodingError {
            guard let statement else { throw error }
            throw RowDecodingError.inStatement(statement, error)
        }
    }

    package static func decode<T: Decodable>(_ type: T.Type, values: [DatabaseValue], columns: ColumnLookup,
                                     rowIndex: Int, absentKeys: AbsentKeyLog? = nil) throws -> T {
        let decoder = RowDecoder(values: values, columns: columns, rowIndex: rowIndex, absentKeys: absentKeys)
        if let first = values.first {
            let column = ColumnDecoder(value: first, context: decoder.context(forColumn: 0), codingPath: [])
            if let value = try column.decodeIfSingleValue(type) {
                return value
            }
        }
        return try T(from: decoder)
    }

    func context(forColumn index: Int) -> ColumnContext {
        ColumnContext(column: columns.names[index], row: rowIndex)
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowKeyedContainer<Key>(decoder: self))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "a row decodes by column name, not as an array"))
    }

    /// A single value read from a row is its first column, as in `fetchAll(String.self, sql: "select name ...")`.
    package func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard !values.isEmpty else {
            throw RowDecodingError.missingColumn(column: "(first column)", availableColumns: [], row: rowIndex)
        }
        return ColumnDecoder(value: values[0], context: context(forColumn: 0), codingPath: codingPath)
    }
}

/// The names of the properties a decoding asked for that the row has no column for (an
/// optional property, which decodes nil then).
package final class AbsentKeyLog {
    package var names: [String] = []

    package init() {}
}

/// Properties looked up by column name, case-insensitively; the leftmost duplicate wins.
private struct RowKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RowDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { decoder.columns.names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        let found = decoder.columns.index(of: key.stringValue) != nil
        if !found { decoder.absentKeys?.names.append(key.stringValue) }
        return found
    }

    private func columnIndex(_ key: Key) throws -> Int {
        guard let index = decoder.columns.index(of: key.stringValue) else {
            throw RowDecodingError.missingColumn(column: key.stringValue, availableColumns: decoder.columns.names,
                                                 row: decoder.rowIndex)
        }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.values[try columnIndex(key)].isNull
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try columnIndex(key)
        let column = ColumnDecoder(value: decoder.values[index], context: decoder.context(forColumn: index),
                                   codingPath: codingPath + [key])
        return try column.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: codingPath + [key], debugDescription: "nested values are stored as JSON text"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath + [key], debugDescription: "nested values are stored as JSON text"))
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
}

/// Decodes one column's value. Built-in types read it directly; wrappers such as Optional and
/// raw-value enums go through it; structs and arrays are read from the value as JSON text.
struct ColumnDecoder: Decoder, SingleValueDecodingContainer {
    let value: DatabaseValue
    let context: ColumnContext
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Thrown when the type asks for a keyed or unkeyed container: it is a JSON-encoded value.
    private struct StoredAsJSON: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw StoredAsJSON()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StoredAsJSON()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = try decodeIfSingleValue(type) {
            return value
        }
        return try ColumnValueDecoding.json(type, from: value, context: context)
    }

    /// The value decoded as `T`, or nil when `T` is not a single value but has properties (it is then
    /// decoded from JSON text inside a column, or by column name at the top of a row).
    func decodeIfSingleValue<T: Decodable>(_ type: T.Type) throws -> T? {
        if let builtIn = try ColumnValueDecoding.decodeIfBuiltIn(type, from: value, context: context) {
            return builtIn
        }
        do {
            return try T(from: self)
        } catch is StoredAsJSON {
            return nil
        } catch let error as DecodingError {
            // A raw-value enum with an unknown raw value, for example.
            throw ColumnValueDecoding.mismatch(value, type, context, Self.summary(of: error))
        }
    }

    private static func summary(of error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context),
             .valueNotFound(_, let context), .keyNotFound(_, let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}
