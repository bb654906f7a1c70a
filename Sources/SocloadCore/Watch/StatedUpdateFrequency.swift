import Foundation

/// Where a portal states how often a dataset is updated, and what it says there.
///
/// Socrata portals keep it in the description's custom fields, under names each portal chooses
/// (Seattle's `Refresh Frequency › Frequency: hourly`, Chicago's `Metadata › Frequency`, New
/// York's `Update › Update Frequency: Daily`, Mesa's `Frequency › Publishing: Monthly`), and often
/// in the description text ("... Update Frequency: Monthly", "Data is updated quarterly.").
///
///     let stated = StatedUpdateFrequency.find(customFields: [CustomField(group: "Update", field: "Update Frequency", value: "Daily")],
///                                             description: nil)
///     print(stated ?? "none")   // Daily
///
/// The answer is the text as the portal wrote it; `UpdateInterval(_:)` reads its length.
public enum StatedUpdateFrequency {
    /// Field names (group or field, lowercased) that may hold the frequency, in order of trust.
    static let fieldNames = ["frequen", "periodicity", "cadence", "refresh", "update", "schedule"]

    /// The first custom field, then sentence of `description`, that states an interval.
    public static func find(customFields: [CustomField], description: String?) -> String? {
        for name in fieldNames {
            for field in customFields where (field.group + " " + field.field).lowercased().contains(name) {
                let value = field.value.trimmingCharacters(in: .whitespacesAndNewlines)
                if !value.isEmpty, value.count <= 200, UpdateInterval(value) != nil { return value }
            }
        }
        return description.flatMap(inText)
    }

    /// "Frequency: Monthly" (the words after a colon that follows "frequency", to the sentence's
    /// end), else "updated daily" (the few words after updated, refreshed or published).
    public static func inText(_ text: String) -> String? {
        var searchStart = text.startIndex
        while let found = text.range(of: "frequency", options: .caseInsensitive, range: searchStart..<text.endIndex) {
            searchStart = found.upperBound
            var index = found.upperBound
            while index < text.endIndex, text[index] == " " || text[index] == ")" || text[index] == "*" { index = text.index(after: index) }
            guard index < text.endIndex, text[index] == ":" || text[index] == "-" || text[index] == "–" else { continue }
            let sentence = Self.sentence(in: text, from: text.index(after: index))
            if UpdateInterval(sentence) != nil { return sentence }
        }
        let words = UpdateInterval.words(of: text)
        for (index, word) in words.enumerated() where ["updated", "refreshed", "published", "updates"].contains(word) {
            let phrase = words[(index + 1)..<min(words.count, index + 5)].joined(separator: " ")
            if let interval = UpdateInterval(phrase), phrase.hasPrefix(interval.label.replacingOccurrences(of: "-", with: " "))
                || phrase.hasPrefix("on a ") || phrase.hasPrefix("every ") || phrase.hasPrefix("once ") {
                return word + " " + phrase
            }
        }
        return nil
    }

    /// The text from `start` to the end of its sentence (a period before a space, a line end),
    /// trimmed, at most 120 characters.
    private static func sentence(in text: String, from start: String.Index) -> String {
        var end = start
        var previous: Character = " "
        while end < text.endIndex {
            let character = text[end]
            if character.isNewline || (previous == "." && character == " ") || text.distance(from: start, to: end) >= 120 { break }
            previous = character
            end = text.index(after: end)
        }
        var sentence = text[start..<end].trimmingCharacters(in: .whitespaces)
        if sentence.hasSuffix(".") { sentence.removeLast() }
        return sentence
    }
}

/// One field of a dataset description's custom fields (`metadata.custom_fields`): its group, its
/// name and its text, as the portal's admins named them.
public struct CustomField: Sendable, Equatable, Codable {
    public var group: String
    public var field: String
    public var value: String

    public init(group: String, field: String, value: String) {
        self.group = group
        self.field = field
        self.value = value
    }
}
