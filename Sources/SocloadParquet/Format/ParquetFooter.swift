/// What a file's footer (FileMetaData) says of each column chunk and row group, and the footer
/// itself, in Thrift's compact protocol.
struct ParquetStatistics {
    var nullCount: Int64
    /// The smallest and largest value, PLAIN-encoded (a byte array's bytes alone); nil: not kept.
    var min: [UInt8]?
    var max: [UInt8]?
}

/// One column chunk as written: where its pages are, how they are encoded and compressed.
struct ColumnChunkMetadata {
    let leaf: ParquetLeaf
    let encodings: [Int32]
    let codec: Int32
    /// Values and nulls.
    let valueCount: Int64
    /// The pages' sizes, their headers included.
    let uncompressedSize: Int64
    let compressedSize: Int64
    let dataPageOffset: Int64
    let dictionaryPageOffset: Int64?
    let statistics: ParquetStatistics

    var firstPageOffset: Int64 { dictionaryPageOffset ?? dataPageOffset }
}

struct RowGroupMetadata {
    let columns: [ColumnChunkMetadata]
    let rowCount: Int64

    var uncompressedSize: Int64 { columns.reduce(0) { $0 + $1.uncompressedSize } }
    var compressedSize: Int64 { columns.reduce(0) { $0 + $1.compressedSize } }
}

extension ThriftCompactWriter {
    mutating func statistics(_ id: Int16, _ statistics: ParquetStatistics) {
        beginStruct(id)
        field(3, i64: statistics.nullCount)
        if let max = statistics.max { field(5, binary: max) }
        if let min = statistics.min { field(6, binary: min) }
        stop()
    }

    /// FileMetaData: the schema, the row groups, the key-value metadata and the writer's name.
    static func footer(fields: [ParquetField], rowGroups: [RowGroupMetadata], keyValues: [(String, String)],
                       createdBy: String) -> [UInt8] {
        var thrift = ThriftCompactWriter()
        let leafCount = ParquetLeaf.leaves(of: fields).count
        thrift.field(1, i32: 2)
        thrift.schema(fields)
        thrift.field(3, i64: rowGroups.reduce(0) { $0 + $1.rowCount })
        thrift.beginList(4, of: .structure, count: rowGroups.count)
        for group in rowGroups {
            thrift.beginElement()
            thrift.beginList(1, of: .structure, count: group.columns.count)
            for chunk in group.columns {
                thrift.beginElement()
                thrift.field(2, i64: chunk.firstPageOffset)
                thrift.beginStruct(3)
                thrift.field(1, i32: chunk.leaf.physical.rawValue)
                thrift.beginList(2, of: .i32, count: chunk.encodings.count)
                for encoding in chunk.encodings { thrift.element(i32: encoding) }
                thrift.beginList(3, of: .binary, count: chunk.leaf.path.count)
                for name in chunk.leaf.path { thrift.element(string: name) }
                thrift.field(4, i32: chunk.codec)
                thrift.field(5, i64: chunk.valueCount)
                thrift.field(6, i64: chunk.uncompressedSize)
                thrift.field(7, i64: chunk.compressedSize)
                thrift.field(9, i64: chunk.dataPageOffset)
                if let offset = chunk.dictionaryPageOffset { thrift.field(11, i64: offset) }
                thrift.statistics(12, chunk.statistics)
                thrift.stop()
                thrift.stop()
            }
            thrift.field(2, i64: group.uncompressedSize)
            thrift.field(3, i64: group.rowCount)
            thrift.field(5, i64: group.columns.first?.firstPageOffset ?? 0)
            thrift.field(6, i64: group.compressedSize)
            thrift.stop()
        }
        if !keyValues.isEmpty {
            thrift.beginList(5, of: .structure, count: keyValues.count)
            for (key, value) in keyValues {
                thrift.beginElement()
                thrift.field(1, string: key)
                thrift.field(2, string: value)
                thrift.stop()
            }
        }
        thrift.field(6, string: createdBy)
        // Every column's statistics follow its type's order (signed numbers, unsigned bytes).
        thrift.beginList(7, of: .structure, count: leafCount)
        for _ in 0..<leafCount {
            thrift.beginElement()
            thrift.beginStruct(1)
            thrift.stop()
            thrift.stop()
        }
        thrift.stop()
        return thrift.bytes
    }

    /// A data page's header (DATA_PAGE, v1): `valueCount` values and nulls, levels RLE.
    static func dataPageHeader(uncompressedSize: Int, compressedSize: Int, valueCount: Int, encoding: Int32,
                               statistics: ParquetStatistics?) -> [UInt8] {
        var thrift = ThriftCompactWriter()
        thrift.field(1, i32: 0)
        thrift.field(2, i32: Int32(uncompressedSize))
        thrift.field(3, i32: Int32(compressedSize))
        thrift.beginStruct(5)
        thrift.field(1, i32: Int32(valueCount))
        thrift.field(2, i32: encoding)
        thrift.field(3, i32: 3)
        thrift.field(4, i32: 3)
        if let statistics { thrift.statistics(5, statistics) }
        thrift.stop()
        thrift.stop()
        return thrift.bytes
    }

    /// A dictionary page's header: `valueCount` distinct values, PLAIN.
    static func dictionaryPageHeader(uncompressedSize: Int, compressedSize: Int, valueCount: Int) -> [UInt8] {
        var thrift = ThriftCompactWriter()
        thrift.field(1, i32: 2)
        thrift.field(2, i32: Int32(uncompressedSize))
        thrift.field(3, i32: Int32(compressedSize))
        thrift.beginStruct(7)
        thrift.field(1, i32: Int32(valueCount))
        thrift.field(2, i32: 0)
        thrift.stop()
        thrift.stop()
        return thrift.bytes
    }
}
