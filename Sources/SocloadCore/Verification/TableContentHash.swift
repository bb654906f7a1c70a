import Foundation

/// Hashes that say whether two loads hold the same thing, for a project's lock file: the rows
/// of a table whatever their order, and the shape of its plan.
///
///     let hash = try TableContentHash.rows(of: "n5m4_mism", in: database)   // 32 hex digits
///
/// Each row's cells (kind and value, in column order) are hashed twice (`StableHasher`, two
/// seeds); the row hashes are added modulo 2^64 per lane, so the order the rows are stored
/// or read in does not matter and a row twice counts twice. The hash is the database's: the same
/// rows in SQLite and PostgreSQL are stored as different values (a timestamp's text, say), so
/// compare a database with its own earlier hash.
public enum TableContentHash {
    /// 32 hex digits for the rows of `table` (the columns it has, in order), read as a stream.
    public static func rows(of table: String, in database: any LoadedDatabase) throws -> String {
        var sum = (UInt64(0), UInt64(0))
        let statement = try database.selectStatement(SelectRequest(table: table))
        try database.read(statement, columns: { _ in }, row: { cells in
            let hash = rowHash(cells)
            sum = (sum.0 &+ hash.0, sum.1 &+ hash.1)
        })
        return hex(sum.0) + hex(sum.1)
    }

    /// 16 hex digits for what a table's plan makes of the data: its stored columns' names and
    /// types, and its key. The same dataset planned the same way has the same hash.
    public static func schema(of table: PlanTable) -> String {
        var text = table.storedColumns.map { "\($0.name)\u{1F}\($0.type.rawValue)" }.joined(separator: "\u{1E}")
        text += "\u{1D}" + table.primaryKey.joined(separator: "\u{1F}")
        var hasher = StableHasher(seed: seeds.0)
        Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        return hex(hasher.finalize())
    }

    private static let seeds: (UInt64, UInt64) = (0x736F_636C_6F61_6431, 0x6C6F_636B_6669_6C65)

    /// The kind, then the bytes with their length (`combine(bytes:)` ends with it), so cells
    /// that split the same bytes differently, or hold one text as two kinds, hash differently.
    static func rowHash(_ cells: [DatabaseValue]) -> (UInt64, UInt64) {
        var first = StableHasher(seed: seeds.0)
        var second = StableHasher(seed: seeds.1)
        for cell in cells {
            let (kind, bytes) = canonical(cell)
            first.combine(kind)
            second.combine(kind)
            bytes.withUnsafeBytes { first.combine(bytes: $0); second.combine(bytes: $0) }
        }
        return (first.finalize(), second.finalize())
    }

    /// A kind and the value's bytes: a number as its decimal text, so the same value read
    /// as an integer or a real the same way hashes the same every time.
    private static func canonical(_ value: DatabaseValue) -> (UInt64, [UInt8]) {
        switch value {
        case .null: return (0, [])
        case .integer(let number): return (1, Array(String(number).utf8))
        case .real(let number): return (2, Array("\(number)".utf8))
        case .text(let text): return (3, Array(text.utf8))
        case .blob(let data): return (4, Array(data))
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
