/// A row's fingerprint: its key and a stable hash of its content, what a refresh compares with
/// the previous copy's to count the rows added, changed, removed and unchanged without reading
/// the old table again.
///
/// The content hash is the same in every process and on every run (unlike Swift's `Hasher`),
/// ignores the order of the columns and the columns that are NULL (so a column added empty, or
/// kept NULL by `--on-schema-change evolve`, changes no row), knows a column by the name it was
/// first loaded under (`PlanColumn.fingerprintName`: a rename changes no row), and leaves out the portal's own
/// bookkeeping (`_id`, `_created_at`, `_updated_at`, `_version`): a row re-issued under a new
/// id with the same values has the same hash.
public struct RowFingerprinter: Sendable {
    /// The batch positions of the key columns, in key order (empty: the table has no key, and a
    /// row is known by its hash alone).
    public let keyPositions: [Int]
    /// The content columns: batch position and the hash of the column's name.
    let contentColumns: [(position: Int, nameSeed: UInt64)]

    /// Columns the portal keeps for itself, which say nothing about the row's content.
    static let bookkeepingColumns: Set<String> = ["_id", "_created_at", "_updated_at", "_version", "_sid", "_row_id",
                                                  "_position", "_created_meta", "_updated_meta", "_meta"]

    /// For rows of `table` in its column order (`PlanTable.columns`, as batches arrive).
    public init(table: PlanTable) {
        keyPositions = table.primaryKey.compactMap { name in table.columns.firstIndex { $0.name == name } }
        contentColumns = table.columns.enumerated().compactMap { position, column in
            if case .rowIdentifier = column.source { return nil }
            if Self.bookkeepingColumns.contains(column.name.lowercased()) { return nil }
            var hasher = StableHasher(seed: 0x736f_636c_6f61_6421)
            var name = column.fingerprintName ?? column.name
            name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            return (position, hasher.finalize())
        }
    }

    /// The columns of a fingerprint batch: `kh` (a hash of the key, what rows are matched by;
    /// the content hash when there is no key), `h` (the content hash), `r` (the row's number in
    /// the new copy, from 1, in insertion order), then `k1`...`kn` (the key's values, to find
    /// the row in the table).
    public static func columnNames(keyCount: Int) -> [String] {
        ["kh", "h", "r"] + (0..<keyCount).map { "k\($0 + 1)" }
    }

    /// The fingerprints of a batch's rows, as a batch of `columnNames(keyCount:)` that shares
    /// the batch's text; `firstOrdinal` is the number of the batch's first row in the new copy.
    public func fingerprints(of batch: RowBatch, firstOrdinal: Int) -> RowBatch {
        let width = keyPositions.count + 3
        var result = RowBatch(columnCount: width, firstRowNumber: batch.firstRowNumber, expectedRows: 0)
        result.arena = batch.arena
        result.values.reserveCapacity(batch.rowCount * width)
        batch.arena.withUnsafeBytes { arena in
            for row in 0..<batch.rowCount {
                let base = row * batch.columnCount
                let content = Int64(bitPattern: contentHash(batch.values, base: base, arena: arena))
                result.values.append(.integer(keyPositions.isEmpty ? content : Int64(bitPattern: keyHash(batch.values, base: base, arena: arena))))
                result.values.append(.integer(content))
                result.values.append(.integer(Int64(firstOrdinal + row)))
                for position in keyPositions { result.values.append(batch.values[base + position]) }
            }
        }
        return result
    }

    /// The wrapping sum of each non-NULL content column's hash (name and value): independent
    /// of column order.
    func contentHash(_ values: [RowBatch.Value], base: Int, arena: UnsafeRawBufferPointer) -> UInt64 {
        var sum: UInt64 = 0
        for column in contentColumns {
            var hasher = StableHasher(seed: column.nameSeed)
            guard Self.combine(values[base + column.position], into: &hasher, arena: arena) else { continue }
            sum &+= hasher.finalize()
        }
        return sum
    }

    /// The key's values hashed in key order.
    func keyHash(_ values: [RowBatch.Value], base: Int, arena: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = StableHasher(seed: 0x6b65_7973)
        for position in keyPositions {
            if !Self.combine(values[base + position], into: &hasher, arena: arena) { hasher.combine(0) }
        }
        return hasher.finalize()
    }

    /// Feeds one value, tagged by its kind, to `hasher`; false for NULL (nothing fed). A decimal
    /// is fed without the zeros that end its fraction, and a whole one as the integer it is:
    /// `4000.000000` (a rows.json export) and `4000` (SODA, read as an integer) are one value,
    /// whichever API loaded it.
    static func combine(_ value: RowBatch.Value, into hasher: inout StableHasher, arena: UnsafeRawBufferPointer) -> Bool {
        switch value {
        case .scaledDecimal(var decimal):
            while decimal.scale > 0, decimal.units % 10 == 0 {
                decimal.units /= 10
                decimal.scale -= 1
            }
            if decimal.scale == 0 { hasher.combine(1); hasher.combine(UInt64(bitPattern: decimal.units)); return true }
            hasher.combine(7); hasher.combine(UInt64(bitPattern: decimal.units)); hasher.combine(UInt64(bitPattern: Int64(decimal.scale)))
        case let .decimal(offset, length):
            let canonical = canonicalDecimal(UnsafeRawBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)]))
            if !canonical.contains(UInt8(ascii: ".")), let whole = DecimalText.integer(UnsafeBufferPointer(start: canonical.baseAddress?.assumingMemoryBound(to: UInt8.self), count: canonical.count)) {
                hasher.combine(1); hasher.combine(UInt64(bitPattern: whole))
                return true
            }
            hasher.combine(3)
            hasher.combine(bytes: canonical)
        case .null: return false
        case .integer(let integer): hasher.combine(1); hasher.combine(UInt64(bitPattern: integer))
        case .real(let real): hasher.combine(2); hasher.combine(real.bitPattern)
        case .instant(let microseconds): hasher.combine(4); hasher.combine(UInt64(bitPattern: microseconds))
        case .wallClock(let microseconds): hasher.combine(6); hasher.combine(UInt64(bitPattern: microseconds))
        case .day(let day): hasher.combine(5); hasher.combine(UInt64(bitPattern: Int64(day)))
        case let .text(offset, length), let .json(offset, length):
            hasher.combine(3)
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)]))
        }
        return true
    }

    /// Decimal text without the zeros ending its fraction (and without the point, then): `1.50`
    /// → `1.5`, `4000.000` → `4000`; text with an exponent, or no point, as it is.
    static func canonicalDecimal(_ text: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard text.contains(UInt8(ascii: ".")), !text.contains(UInt8(ascii: "e")), !text.contains(UInt8(ascii: "E")) else {
            return text
        }
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: "0") { end -= 1 }
        if end > 0, text[end - 1] == UInt8(ascii: ".") { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: text[0..<end])
    }
}

/// A small 64-bit hash that is the same on every run: eight bytes at a time, multiplied and
/// folded, finished by the 64-bit finalizer of MurmurHash3 (a published constant set).
struct StableHasher {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func combine(_ word: UInt64) {
        state = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        state ^= state >> 29
    }

    mutating func combine(bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index + 8 <= bytes.count {
            combine(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian)
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        combine(tail)
        combine(UInt64(bytes.count))
    }

    func finalize() -> UInt64 {
        var value = state
        value ^= value >> 33
        value = value &* 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        value = value &* 0xc4ce_b9fe_1a85_ec53
        value ^= value >> 33
        return value
    }
}
