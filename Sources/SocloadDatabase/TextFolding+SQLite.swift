import CSQLite
import Foundation
import SocloadCore

/// The `fold` SQL function, on a SQLite connection (see `TextFolding`).
extension TextFolding {
    /// Registers `fold` on a connection.
    static func register(on connection: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        for arity in [Int32(1), Int32(2)] {
            sqlite3_create_function_v2(connection, "fold", arity, flags, nil, { context, count, arguments in
                guard let context, let arguments, let first = arguments[0] else { return }
                guard sqlite3_value_type(first) != SQLITE_NULL else {
                    sqlite3_result_null(context)
                    return
                }
                var options: Options = [.caseInsensitive, .diacriticInsensitive]
                if count > 1, let second = arguments[1] {
                    options = Options(rawValue: sqlite3_value_int(second))
                }
                let bytes = sqlite3_value_text(first)
                let length = Int(sqlite3_value_bytes(first))
                let text = bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
                var folded = TextFolding.fold(text, options)
                folded.withUTF8 { buffer in
                    // A nil base address (empty text) would make the result NULL; point at a dummy byte.
                    let start = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                    sqlite3_result_text64(context, start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(buffer.count),
                                          socload_sqlite3_transient(), UInt8(SQLITE_UTF8))
                }
            }, nil, nil, nil)
        }
    }
}
