/// Thrift's compact protocol, the encoding of Parquet's metadata (the file footer, each page's
/// header): written field by field, each struct opened and closed by the caller (`beginStruct`,
/// `stop`), the field ids in increasing order within a struct, the message ended by `stop`.
struct ThriftCompactWriter {
    /// The compact protocol's type codes.
    enum Kind: UInt8 {
        case boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6, double = 7, binary = 8, list = 9, set = 10,
             map = 11, structure = 12
    }

    private(set) var bytes: [UInt8] = []
    /// The last field id written in each open struct (the innermost last).
    private var lastFieldIDs: [Int16] = [0]

    init() {}

    private mutating func header(_ id: Int16, _ kind: Kind) {
        let delta = Int(id) - Int(lastFieldIDs[lastFieldIDs.count - 1])
        if delta > 0, delta <= 15 {
            bytes.append(UInt8(delta) << 4 | kind.rawValue)
        } else {
            bytes.append(kind.rawValue)
            bytes.appendZigzag(Int64(id))
        }
        lastFieldIDs[lastFieldIDs.count - 1] = id
    }

    mutating func field(_ id: Int16, bool: Bool) { header(id, bool ? .boolTrue : .boolFalse) }

    mutating func field(_ id: Int16, i8: Int8) {
        header(id, .byte)
        bytes.append(UInt8(bitPattern: i8))
    }

    mutating func field(_ id: Int16, i32: Int32) {
        header(id, .i32)
        bytes.appendZigzag(Int64(i32))
    }

    mutating func field(_ id: Int16, i64: Int64) {
        header(id, .i64)
        bytes.appendZigzag(i64)
    }

    mutating func field(_ id: Int16, binary: [UInt8]) {
        header(id, .binary)
        bytes.appendVarint(UInt64(binary.count))
        bytes.append(contentsOf: binary)
    }

    mutating func field(_ id: Int16, string: String) { field(id, binary: Array(string.utf8)) }

    /// Opens a struct field: its fields follow, then `stop()`.
    mutating func beginStruct(_ id: Int16) {
        header(id, .structure)
        lastFieldIDs.append(0)
    }

    /// Ends the innermost open struct (and the message, at the outermost level).
    mutating func stop() {
        bytes.append(0)
        if lastFieldIDs.count > 1 { lastFieldIDs.removeLast() }
    }

    /// A list field's header: `count` elements of `kind` follow (structs: each opened with
    /// `beginElement()` and closed with `stop()`; i32 with `element(i32:)`; strings with `element(string:)`).
    mutating func beginList(_ id: Int16, of kind: Kind, count: Int) {
        header(id, .list)
        if count < 15 {
            bytes.append(UInt8(count) << 4 | kind.rawValue)
        } else {
            bytes.append(0xF0 | kind.rawValue)
            bytes.appendVarint(UInt64(count))
        }
    }

    /// A struct element of a list.
    mutating func beginElement() { lastFieldIDs.append(0) }

    mutating func element(i32: Int32) { bytes.appendZigzag(Int64(i32)) }

    mutating func element(string: String) {
        bytes.appendVarint(UInt64(string.utf8.count))
        bytes.append(contentsOf: string.utf8)
    }
}
