import Foundation

/// Encodes an `Encodable` record into column values by property name — the writing side of
/// `RowDecoder`. Built-in values (`DatabaseValueConvertible`: numbers, strings, Bool, Date,
/// Data, URL, UUID, Decimal) are stored as `DatabaseValue` gives them, a raw-value enum as its raw
/// value, any other nested value (a struct, an array) as JSON text, which the reading side
/// decodes back. An optional that is nil is NULL (not left out), so an upsert can clear a column.
package struct RowEncoder {
    /// Column values in property order.
    package static func encode<T: Encodable>(_ record: T) throws -> [(column: String, value: DatabaseValue)] {
        let storage = RowStorage()
        do {
            try record.encode(to: RowEncoderCore(storage: storage))
        } catch is SingleValueCapture.NotSingle {
            throw RecordWriteError.notARecord(String(describing: T.self))
        }
        guard storage.isKeyed else {
            throw RecordWriteError.notARecord(String(describing: T.self))
        }
        return storage.values
    }

    /// One property's value.
    static func value<T: Encodable>(_ value: T, column: String) throws -> DatabaseValue {
        if let convertible = value as? any DatabaseValueConvertible { return convertible.databaseValue }
        let capture = SingleValueCapture()
        do {
            try value.encode(to: capture)
            if let captured = capture.value { return captured }
        } catch is SingleValueCapture.NotSingle {
            // A struct or an array: JSON text.
        }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(ISO8601Timestamp.format(date))
            }
            return .text(String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            throw RecordWriteError.unencodable(column: column, reason: "\(error)")
        }
    }
}

final class RowStorage {
    var values: [(column: String, value: DatabaseValue)] = []
    var isKeyed = false

    func set(_ value: DatabaseValue, for column: String) {
        if let index = values.firstIndex(where: { $0.column == column }) {
            values[index].value = value
        } else {
            values.append((column, value))
        }
    }
}

private struct RowEncoderCore: Encoder {
    let storage: RowStorage
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        storage.isKeyed = true
        return KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FailingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FailingSingleValueContainer()
    }
}

private struct RowKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: RowStorage
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { storage.set(.null, for: key.stringValue) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        storage.set(try RowEncoder.value(value, column: key.stringValue), for: key.stringValue)
    }
    // A nil optional is NULL, not a missing column.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeIfPresent(value as String??, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeIfPresent(value as Bool??, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeIfPresent(value as Double??, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeIfPresent(value as Float??, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeIfPresent(value as Int??, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeIfPresent(value as Int8??, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeIfPresent(value as Int16??, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresent(value as Int32??, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeIfPresent(value as Int64??, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeIfPresent(value as UInt??, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeIfPresent(value as UInt8??, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeIfPresent(value as UInt16??, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeIfPresent(value as UInt32??, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeIfPresent(value as UInt64??, key) }

    private mutating func encodeIfPresent<T: Encodable>(_ value: T??, _ key: Key) throws {
        guard let inner = value, let unwrapped = inner else { return try encodeNil(forKey: key) }
        try encode(unwrapped, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        // Types that write nested containers by hand are stored through JSON in `encode(_:forKey:)`;
        // a hand-written nested container has nowhere to go in one row: writing to it fails.
        KeyedEncodingContainer(ThrowingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { RowEncoderCore(storage: storage) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { RowEncoderCore(storage: storage) }
}

/// Captures the value of a type that encodes itself as one value (a raw-value enum, a wrapper).
private final class SingleValueCapture: Encoder, SingleValueEncodingContainer {
    struct NotSingle: Error {}
    var value: DatabaseValue?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ThrowingKeyedContainer<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }
    func encode<T: Encodable>(_ value: T) throws {
        if let convertible = value as? any DatabaseValueConvertible {
            self.value = convertible.databaseValue
        } else {
            let inner = SingleValueCapture()
            try value.encode(to: inner)
            self.value = inner.value
        }
    }
}

/// A keyed container whose first use shows the value is not a single value.
private struct ThrowingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws { throw SingleValueCapture.NotSingle() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw SingleValueCapture.NotSingle() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(ThrowingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { SingleValueCapture() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { SingleValueCapture() }
}

/// An unkeyed container: arrays are never a single value, and a row is not an array.
private struct FailingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw SingleValueCapture.NotSingle() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw SingleValueCapture.NotSingle() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(ThrowingKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { SingleValueCapture() }
}

/// A record encoded as one bare value (a String, an array) has no column names.
private struct FailingSingleValueContainer: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { throw SingleValueCapture.NotSingle() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw SingleValueCapture.NotSingle() }
}
