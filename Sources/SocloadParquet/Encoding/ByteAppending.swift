/// The small integer forms Parquet writes everywhere: ULEB128 varints (Thrift's compact
/// protocol, the RLE/bit-packed hybrid, DELTA_BINARY_PACKED headers), zigzag for signed ones,
/// and a 4-byte little-endian length (before a PLAIN byte array, a page's levels, the footer).
extension Array where Element == UInt8 {
    mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        append(UInt8(value))
    }

    mutating func appendZigzag(_ value: Int64) {
        appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func appendLittleEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
