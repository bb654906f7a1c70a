/// Parquet's RLE / bit-packed hybrid encoding, of definition levels and dictionary indices:
/// runs of one repeated value as RLE runs, the rest bit-packed in groups of eight.
enum HybridEncoder {
    /// `values` (each below 2^bitWidth) encoded, without a length prefix.
    static func encode(_ values: [UInt32], bitWidth: Int, into output: inout [UInt8]) {
        let byteWidth = (bitWidth + 7) / 8
        var index = 0
        var packed: [UInt32] = []
        func flushPacked() {
            guard !packed.isEmpty else { return }
            let groups = (packed.count + 7) / 8
            packed += Array(repeating: 0, count: groups * 8 - packed.count)
            output.appendVarint(UInt64(groups) << 1 | 1)
            var buffer: UInt64 = 0
            var bits = 0
            for value in packed {
                buffer |= UInt64(value) << UInt64(bits)
                bits += bitWidth
                while bits >= 8 {
                    output.append(UInt8(truncatingIfNeeded: buffer))
                    buffer >>= 8
                    bits -= 8
                }
            }
            if bits > 0 { output.append(UInt8(truncatingIfNeeded: buffer)) }
            packed.removeAll(keepingCapacity: true)
        }
        while index < values.count {
            var run = 1
            while index + run < values.count, values[index + run] == values[index] { run += 1 }
            // A run worth its header, begun on a group boundary of what is packed so far.
            if run >= 8, packed.count % 8 == 0 {
                flushPacked()
                output.appendVarint(UInt64(run) << 1)
                var value = values[index]
                for _ in 0..<byteWidth {
                    output.append(UInt8(truncatingIfNeeded: value))
                    value >>= 8
                }
                index += run
            } else if run >= 8 {
                // Fill the open group first; the rest of the run is looked at again.
                let fill = 8 - packed.count % 8
                packed += Array(repeating: values[index], count: fill)
                index += fill
            } else {
                packed += values[index..<(index + run)]
                index += run
            }
        }
        flushPacked()
    }

    /// Definition levels as a data page v1 holds them: a 4-byte little-endian length, then the hybrid runs.
    static func levels(_ levels: [UInt32], maxLevel: Int, into output: inout [UInt8]) {
        var encoded: [UInt8] = []
        encode(levels, bitWidth: bitWidth(of: maxLevel), into: &encoded)
        let length = UInt32(encoded.count)
        output.appendLittleEndian(length)
        output += encoded
    }

    /// The bits that hold every value up to `maximum`.
    static func bitWidth(of maximum: Int) -> Int {
        maximum <= 0 ? 0 : Int.bitWidth - maximum.leadingZeroBitCount
    }
}
