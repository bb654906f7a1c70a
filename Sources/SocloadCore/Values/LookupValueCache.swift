/// The lookup ids of values a load has already met, kept while its rows stream so that a value
/// seen before costs a hash and a compare of its bytes instead of a query. A value is keyed by
/// its cells as `RowBatch` holds them (`beginKey`, `appendToKey`), which the converter gives the
/// same way every time it reads the same source value. The cache stops growing at
/// `maximumBytes` (keys and bookkeeping): past that, values it does not hold are found by the
/// database's unique index, so memory stays flat whatever a column's number of distinct values.
///
/// Two spellings of one stored value (an integer and a real that compare equal) are two keys
/// here; each finds the same lookup row in the database, so the cache only ever saves queries.
public struct LookupValueCache {
    private struct Entry {
        var start: Int32
        var length: Int32
        var id: Int64
        /// The next entry with the same hash, or -1.
        var next: Int32
    }

    /// Bytes of bookkeeping counted per entry on top of its key: the entry, and its slot in the
    /// hash table.
    private static let entryOverhead = 48

    public let maximumBytes: Int
    private var slots: [UInt64: Int32] = [:]
    private var entries: [Entry] = []
    private var keys: [UInt8] = []
    private var usedBytes = 0
    /// The key being built, and its hash once `cachedID()` computed it.
    private var key: [UInt8] = []
    private var keyHash: UInt64 = 0

    public init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
        key.reserveCapacity(256)
    }

    /// Starts the key of the next value.
    public mutating func beginKey() {
        key.removeAll(keepingCapacity: true)
    }

    /// Adds one cell of the value to its key.
    public mutating func appendToKey(_ value: RowBatch.Value, arena: UnsafeBufferPointer<UInt8>) {
        switch value {
        case .null: key.append(0)
        case .integer(let integer): appendWord(1, UInt64(bitPattern: integer))
        case .real(let real): appendWord(2, real.bitPattern)
        case let .text(offset, length), let .json(offset, length): appendBytes(3, arena, offset, length)
        case let .decimal(offset, length): appendBytes(4, arena, offset, length)
        case .scaledDecimal(let decimal):
            appendWord(5, UInt64(bitPattern: decimal.units))
            key.append(UInt8(truncatingIfNeeded: decimal.scale))
        case .instant(let microseconds): appendWord(6, UInt64(bitPattern: microseconds))
        case .wallClock(let microseconds): appendWord(7, UInt64(bitPattern: microseconds))
        case .day(let day): appendWord(8, UInt64(UInt32(bitPattern: day)))
        }
    }

    /// The id remembered for the key built, if any.
    public mutating func cachedID() -> Int64? {
        var hasher = StableHasher(seed: 0x6C6F_6F6B_7570)
        key.withUnsafeBytes { hasher.combine(bytes: $0) }
        keyHash = hasher.finalize()
        guard var index = slots[keyHash] else { return nil }
        while index >= 0 {
            let entry = entries[Int(index)]
            if Int(entry.length) == key.count, keysEqual(entry) { return entry.id }
            index = entry.next
        }
        return nil
    }

    /// Remembers `id` for the key built (after `cachedID()` found none), while there is room.
    public mutating func remember(_ id: Int64) {
        guard usedBytes + key.count + Self.entryOverhead <= maximumBytes else { return }
        let entry = Entry(start: Int32(keys.count), length: Int32(key.count), id: id, next: slots[keyHash] ?? -1)
        keys.append(contentsOf: key)
        slots[keyHash] = Int32(entries.count)
        entries.append(entry)
        usedBytes += key.count + Self.entryOverhead
    }

    /// How many values are remembered.
    public var count: Int { entries.count }

    private func keysEqual(_ entry: Entry) -> Bool {
        keys.withUnsafeBufferPointer { stored in
            key.withUnsafeBufferPointer { candidate in
                memcmpEqual(UnsafeRawPointer(stored.baseAddress! + Int(entry.start)), UnsafeRawPointer(candidate.baseAddress!),
                            candidate.count)
            }
        }
    }

    private mutating func appendWord(_ tag: UInt8, _ word: UInt64) {
        key.append(tag)
        withUnsafeBytes(of: word.littleEndian) { key.append(contentsOf: $0) }
    }

    private mutating func appendBytes(_ tag: UInt8, _ arena: UnsafeBufferPointer<UInt8>, _ offset: Int32, _ length: Int32) {
        key.append(tag)
        withUnsafeBytes(of: length.littleEndian) { key.append(contentsOf: $0) }
        if length > 0, let base = arena.baseAddress {
            key.append(contentsOf: UnsafeBufferPointer(start: base + Int(offset), count: Int(length)))
        }
    }
}

/// True when `count` bytes at `left` and `right` are the same.
private func memcmpEqual(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, _ count: Int) -> Bool {
    UnsafeRawBufferPointer(start: left, count: count).elementsEqual(UnsafeRawBufferPointer(start: right, count: count))
}
