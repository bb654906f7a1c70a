/// Parquet's DELTA_BINARY_PACKED encoding of whole numbers, for timestamps and dates without a
/// dictionary: the first value, then blocks of 128 deltas, each block its smallest delta and
/// four miniblocks of 32 deltas bit-packed at the width the miniblock needs. Increasing
/// timestamps (a dataset's `_created_at`) take a few bits each instead of eight bytes.
enum DeltaEncoder {
    static let blockSize = 128, miniblocks = 4, miniblockSize = 32

    /// `values` encoded (their count and first value in the header).
    static func encode(_ values: [Int64], into output: inout [UInt8]) {
        output.appendVarint(UInt64(blockSize))
        output.appendVarint(UInt64(miniblocks))
        output.appendVarint(UInt64(values.count))
        output.appendZigzag(values.first ?? 0)
        guard values.count > 1 else { return }
        var start = 1
        while start < values.count {
            let end = min(start + blockSize, values.count)
            // Deltas wrap, as the format reads them back.
            let deltas = (start..<end).map { values[$0] &- values[$0 - 1] }
            let smallest = deltas.min() ?? 0
            output.appendZigzag(smallest)
            let relative = deltas.map { UInt64(bitPattern: $0 &- smallest) }
            var widths: [Int] = []
            for miniblock in 0..<miniblocks {
                let slice = relative.dropFirst(miniblock * miniblockSize).prefix(miniblockSize)
                widths.append(slice.isEmpty ? 0 : UInt64.bitWidth - (slice.max() ?? 0).leadingZeroBitCount)
            }
            output += widths.map(UInt8.init)
            for miniblock in 0..<miniblocks where !relative.dropFirst(miniblock * miniblockSize).isEmpty {
                var slice = Array(relative.dropFirst(miniblock * miniblockSize).prefix(miniblockSize))
                slice += Array(repeating: 0, count: miniblockSize - slice.count)
                pack(slice, width: widths[miniblock], into: &output)
            }
            start = end
        }
    }

    /// 32 values of `width` bits each, least significant bit first.
    private static func pack(_ values: [UInt64], width: Int, into output: inout [UInt8]) {
        guard width > 0 else { return }
        var buffer: UInt64 = 0
        var bits = 0
        for value in values {
            var remaining = width
            var value = value
            while remaining > 0 {
                let take = min(remaining, 64 - bits)
                let mask: UInt64 = take == 64 ? .max : (1 << UInt64(take)) - 1
                buffer |= (value & mask) << UInt64(bits)
                bits += take
                remaining -= take
                value = take == 64 ? 0 : value >> UInt64(take)
                while bits >= 8 {
                    output.append(UInt8(truncatingIfNeeded: buffer))
                    buffer >>= 8
                    bits -= 8
                }
            }
        }
        if bits > 0 { output.append(UInt8(truncatingIfNeeded: buffer)) }
    }
}
