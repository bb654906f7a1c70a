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
}
