import Glibc

/// One column's values for the row group being gathered, with their definition levels and
/// statistics, written at the end of the row group as pages: a dictionary page and
/// RLE_DICTIONARY data pages for byte arrays and numbers with few distinct values (PLAIN once
/// the dictionary grows past `dictionaryLimit` bytes), PLAIN data pages otherwise.
final class ColumnChunkBuffer {
    let leaf: ParquetLeaf
    /// A dictionary bigger than this (its PLAIN bytes) is given up for PLAIN pages.
    static let dictionaryLimit = 1 << 20
    /// Data pages are cut at about this many bytes of values.
    static let pageSize = 1 << 20

    private(set) var slotCount = 0
    /// Definition levels (at most 2 here: a column in an optional group).
    private(set) var levels: [UInt8] = []
    private(set) var nullCountSoFar: Int64 = 0
    /// PLAIN bytes of fixed-width values; a byte array's bytes (its lengths in `ends`).
    private(set) var plain: [UInt8] = []
    private(set) var ends: [UInt32] = []
    private(set) var booleans: [Bool] = []
    private(set) var dictionary: ByteDictionary?
    private(set) var indices: [UInt32] = []
    private(set) var range = ValueRange()

    /// Whether the column's values are looked up in a dictionary: byte arrays and numbers, until
    /// the column shows it has too many distinct values (three quarters of its first 16,384
    /// values), from then on for the whole file.
    private var dictionaryWanted: Bool

    init(leaf: ParquetLeaf) {
        self.leaf = leaf
        dictionaryWanted = [.byteArray, .int32, .int64, .double].contains(leaf.physical)
        dictionary = newDictionary()
    }

    private func newDictionary() -> ByteDictionary? {
        dictionaryWanted ? ByteDictionary(fixedWidth: leaf.physical != .byteArray) : nil
    }

    /// The value just appended to `plain` (`bytes`) looked up in the dictionary, which is
    /// given up when it grows past its limit or the column's values are mostly distinct.
    private func lookUp(_ bytes: UnsafeRawBufferPointer) {
        guard dictionary != nil else { return }
        indices.append(UInt32(dictionary!.index(of: bytes)))
        if indices.count == 16_384, dictionary!.count > 12_288 { dictionaryWanted = false }
        if !dictionaryWanted || dictionary!.plainSize > Self.dictionaryLimit {
            dictionary = nil
            indices = []
        }
    }

    /// The memory the values take so far, as allocated (what a row group's size is told by,
    /// so that the export's memory stays within it).
    var byteCount: Int {
        plain.capacity + 4 * ends.capacity + booleans.capacity + levels.capacity + 4 * indices.capacity
            + (dictionary?.allocatedBytes ?? 0)
    }

    /// A byte array chunk is written before its bytes pass 2 GiB (their offsets are 32 bits).
    var isNearlyFull: Bool { plain.count > 1 << 31 - (1 << 26) }

    private func present() {
        slotCount += 1
        if leaf.maxDefinitionLevel > 0 { levels.append(UInt8(leaf.maxDefinitionLevel)) }
    }

    func appendNull() {
        precondition(leaf.maxDefinitionLevel > 0, "a null in the required column \(leaf.path.joined(separator: "."))")
        slotCount += 1
        levels.append(0)
        nullCountSoFar += 1
    }

    func append(int64 value: Int64) {
        appendFixed(value)
        range.note(signed: Int128(value))
    }

    func append(int32 value: Int32) {
        appendFixed(value)
        range.note(signed: Int128(value))
    }

    func append(double value: Double) {
        appendFixed(value.bitPattern)
        range.note(double: value)
    }

    /// A number's PLAIN bytes (little-endian), looked up in the dictionary.
    private func appendFixed<T: FixedWidthInteger>(_ value: T) {
        present()
        withUnsafeBytes(of: value.littleEndian) {
            plain.append(contentsOf: $0)
            lookUp($0)
        }
    }

    func append(bool value: Bool) {
        present()
        booleans.append(value)
        range.note(signed: value ? 1 : 0)
    }

    /// A decimal's units as a FIXED_LEN_BYTE_ARRAY: big-endian two's complement of `typeLength` bytes.
    func append(decimalUnits value: Int128) {
        present()
        let length = leaf.typeLength ?? 16
        for byte in (0..<length).reversed() { plain.append(UInt8(truncatingIfNeeded: value >> (byte * 8))) }
        range.note(signed: value)
    }

    func append(bytes: UnsafeRawBufferPointer) {
        present()
        plain.append(contentsOf: bytes)
        ends.append(UInt32(truncatingIfNeeded: plain.count))
        // A byte array's smallest and largest are found when the chunk is written (`byteRange`).
        lookUp(bytes)
    }

    func append(string: String) {
        var string = string
        string.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// The smallest and largest value of a column chunk, in its type's order.
struct ValueRange {
    private(set) var minimum: Int128?, maximum: Int128?
    private(set) var minimumDouble: Double?, maximumDouble: Double?

    mutating func note(signed value: Int128) {
        if minimum.map({ value < $0 }) ?? true { minimum = value }
        if maximum.map({ value > $0 }) ?? true { maximum = value }
    }

    mutating func note(double value: Double) {
        guard !value.isNaN else { return }
        if minimumDouble.map({ value < $0 }) ?? true { minimumDouble = value }
        if maximumDouble.map({ value > $0 }) ?? true { maximumDouble = value }
    }

    /// Byte strings in unsigned byte order (UTF-8 text in code point order), as the format
    /// orders BYTE_ARRAY statistics.
    static func less(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order < 0 || (order == 0 && a.count < b.count)
    }
}

extension ColumnChunkBuffer {
    /// Empties the buffer for the next row group (the dictionary too: each chunk has its own).
    func reset() {
        slotCount = 0
        levels.removeAll()
        nullCountSoFar = 0
        plain.removeAll()
        ends.removeAll()
        booleans.removeAll()
        indices.removeAll()
        dictionary = newDictionary()
        range = ValueRange()
    }
}
