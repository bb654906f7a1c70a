/// A gathered column chunk written as pages: the dictionary page first when there is one, then
/// data pages (v1) of about `pageSize` bytes of values each, every page compressed alone.
extension ColumnChunkBuffer {
    /// Writes the chunk's pages through `write`, the first at `offset` in the file; returns
    /// what the footer says of the chunk.
    func writePages(compression: ParquetCompression, offset: Int64, write: ([UInt8]) throws -> Void) throws -> ColumnChunkMetadata {
        var position = offset
        var (uncompressedTotal, compressedTotal) = (0, 0)
        func page(header: [UInt8], body: [UInt8], compressed: [UInt8]) throws {
            try write(header)
            try write(compressed)
            position += Int64(header.count + compressed.count)
            uncompressedTotal += header.count + body.count
            compressedTotal += header.count + compressed.count
        }
        var dictionaryOffset: Int64?
        // RLE (levels), then PLAIN (the dictionary, or the values) or DELTA_BINARY_PACKED.
        var encodings: [Int32] = [3] + (usesDeltas ? [5] : [0])
        if let dictionary {
            let body = dictionary.plain()
            let compressed = try compression.compress(body)
            dictionaryOffset = position
            try page(header: ThriftCompactWriter.dictionaryPageHeader(uncompressedSize: body.count, compressedSize: compressed.count,
                                                                      valueCount: dictionary.count),
                     body: body, compressed: compressed)
            encodings.append(8) // RLE_DICTIONARY
        }
        let dataOffset = position
        let indexWidth = max(1, HybridEncoder.bitWidth(of: (dictionary?.count ?? 1) - 1))
        var (slot, value) = (0, 0)
        repeat {
            var (slotEnd, valueEnd, size) = (slot, value, 0)
            while slotEnd < slotCount, size < Self.pageSize {
                if leaf.maxDefinitionLevel == 0 || levels[slotEnd] == UInt8(leaf.maxDefinitionLevel) {
                    size += dictionary != nil ? 2 : valueSize(valueEnd)
                    valueEnd += 1
                }
                slotEnd += 1
            }
            var body: [UInt8] = []
            if leaf.maxDefinitionLevel > 0 {
                HybridEncoder.levels(levels[slot..<slotEnd].map(UInt32.init), maxLevel: leaf.maxDefinitionLevel, into: &body)
            }
            let encoding: Int32
            if dictionary != nil {
                encoding = 8
                body.append(UInt8(indexWidth))
                HybridEncoder.encode(Array(indices[value..<valueEnd]), bitWidth: indexWidth, into: &body)
            } else if usesDeltas {
                encoding = 5
                DeltaEncoder.encode(plain[(value * 8)..<(valueEnd * 8)].withUnsafeBytes { Array($0.bindMemory(to: Int64.self)) }
                                        .map(Int64.init(littleEndian:)), into: &body)
            } else {
                encoding = 0
                plainValues(value..<valueEnd, into: &body)
            }
            let compressed = try compression.compress(body)
            try page(header: ThriftCompactWriter.dataPageHeader(uncompressedSize: body.count, compressedSize: compressed.count,
                                                                valueCount: slotEnd - slot, encoding: encoding, statistics: nil),
                     body: body, compressed: compressed)
            (slot, value) = (slotEnd, valueEnd)
        } while slot < slotCount
        return ColumnChunkMetadata(leaf: leaf, encodings: encodings, codec: compression.codec, valueCount: Int64(slotCount),
                                   uncompressedSize: Int64(uncompressedTotal), compressedSize: Int64(compressedTotal),
                                   dataPageOffset: dataOffset, dictionaryPageOffset: dictionaryOffset, statistics: chunkStatistics)
    }

    /// Timestamps without a dictionary are DELTA_BINARY_PACKED (mostly increasing: a few bits
    /// a value); other numbers PLAIN.
    private var usesDeltas: Bool {
        guard dictionary == nil, leaf.physical == .int64, case .timestampMicros? = leaf.logical else { return false }
        return true
    }

    private var fixedWidth: Int {
        switch leaf.physical {
        case .int32, .float: return 4
        case .int64, .double: return 8
        case .fixedLenByteArray: return leaf.typeLength ?? 16
        case .boolean, .byteArray: return 0
        }
    }

    private func valueSize(_ index: Int) -> Int {
        switch leaf.physical {
        case .boolean: return 1
        case .byteArray: return 4 + Int(ends[index]) - (index == 0 ? 0 : Int(ends[index - 1]))
        default: return fixedWidth
        }
    }

    /// Values `range` PLAIN-encoded.
    private func plainValues(_ range: Range<Int>, into body: inout [UInt8]) {
        switch leaf.physical {
        case .boolean:
            var byte: UInt8 = 0
            for (offset, value) in booleans[range].enumerated() {
                if value { byte |= 1 << UInt8(offset % 8) }
                if offset % 8 == 7 {
                    body.append(byte)
                    byte = 0
                }
            }
            if range.count % 8 != 0 { body.append(byte) }
        case .byteArray:
            for index in range {
                let (start, end) = (index == 0 ? 0 : Int(ends[index - 1]), Int(ends[index]))
                let length = UInt32(end - start)
                body.appendLittleEndian(length)
                body += plain[start..<end]
            }
        default:
            body += plain[(range.lowerBound * fixedWidth)..<(range.upperBound * fixedWidth)]
        }
    }

    /// The chunk's statistics: its nulls, and its smallest and largest value PLAIN-encoded (a
    /// byte array's only when both are at most 256 bytes: a truncated one would be wrong).
    private var chunkStatistics: ParquetStatistics {
        var result = ParquetStatistics(nullCount: nullCountSoFar, min: nil, max: nil)
        func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        switch leaf.physical {
        case .boolean:
            if let low = range.minimum, let high = range.maximum { (result.min, result.max) = ([UInt8(low)], [UInt8(high)]) }
        case .int32:
            if let low = range.minimum, let high = range.maximum { (result.min, result.max) = (littleEndian(Int32(low)), littleEndian(Int32(high))) }
        case .int64:
            if let low = range.minimum, let high = range.maximum { (result.min, result.max) = (littleEndian(Int64(low)), littleEndian(Int64(high))) }
        case .double, .float:
            // -0.0 as the minimum and +0.0 as the maximum, as the format asks of zeros.
            if var low = range.minimumDouble, var high = range.maximumDouble {
                if low == 0 { low = -0.0 }
                if high == 0 { high = 0.0 }
                (result.min, result.max) = (littleEndian(low.bitPattern), littleEndian(high.bitPattern))
            }
        case .fixedLenByteArray:
            let length = fixedWidth
            func bigEndian(_ value: Int128) -> [UInt8] { (0..<length).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
            if let low = range.minimum, let high = range.maximum { (result.min, result.max) = (bigEndian(low), bigEndian(high)) }
        case .byteArray:
            if let (low, high) = byteRange, low.count <= 256, high.count <= 256 { (result.min, result.max) = (low, high) }
        }
        return result
    }

    /// The smallest and largest byte string of the chunk: among the dictionary's entries when
    /// there is one (each distinct value once), else among every value.
    private var byteRange: (min: [UInt8], max: [UInt8])? {
        let (bytes, bounds): ([UInt8], [Int]) = dictionary.map { ($0.arena, $0.starts) } ?? (plain, [0] + ends.map(Int.init))
        guard bounds.count > 1 else { return nil }
        return bytes.withUnsafeBytes { arena -> ([UInt8], [UInt8]) in
            func value(_ index: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: arena[bounds[index]..<bounds[index + 1]]) }
            var (low, high) = (0, 0)
            for index in 1..<(bounds.count - 1) {
                if ValueRange.less(value(index), value(low)) { low = index }
                if ValueRange.less(value(high), value(index)) { high = index }
            }
            return (Array(value(low)), Array(value(high)))
        }
    }
}
