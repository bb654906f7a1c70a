import SocloadCore

/// What a portal sent, as part of a message: one line of at most 200 characters.
enum MessageLine {
    static func shortened(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
