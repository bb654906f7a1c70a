import CSQLite
import Foundation

/// Case and diacritic folding, the same in Swift and in SQL, so a value folded in Swift compares
/// equal to a column folded by SQLite.
///
/// SQLite gets a deterministic function on every connection: `fold(text)` folds case and
/// diacritics; `fold(text, flags)` folds case when `flags & 1` and diacritics when `flags & 2`.
/// "Café" and "CAFE" both fold to "cafe", "Zürich" and "ZURICH" to "zurich". Folding is
/// Foundation's (Unicode case folding), so "Straße" folds to "strasse" on platforms whose
/// Foundation folds ß that way; see `TextFolding.fold` for what this platform does.
public enum TextFolding {
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let caseInsensitive = Options(rawValue: 1)
        public static let diacriticInsensitive = Options(rawValue: 2)
    }

    public static func fold(_ text: String, _ options: Options = [.caseInsensitive, .diacriticInsensitive]) -> String {
        var foundationOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foundationOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foundationOptions.insert(.diacriticInsensitive) }
        guard !foundationOptions.isEmpty else { return text }
        return text.folding(options: foundationOptions, locale: nil)
    }

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
