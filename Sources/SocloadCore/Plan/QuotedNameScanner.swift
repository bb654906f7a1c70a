/// Reads names out of option values such as `city,state:places+count` or `agency.agency`: a
/// name runs up to the next separator, unless it is written in double quotes as in SQL
/// (`"a,b"`, with `""` for a quote inside), which is how a name holding a separator is given.
public struct QuotedNameScanner {
    private let characters: [Character]
    private var position = 0
    /// The characters that end a bare name.
    public let separators: Set<Character>

    public init(_ text: String, separators: Set<Character> = [",", ":", "+", "=", "."]) {
        characters = Array(text)
        self.separators = separators
    }

    /// True when everything has been read.
    public var isAtEnd: Bool { position == characters.count }

    /// The next character, if it is a separator; it is consumed.
    public mutating func separator() -> Character? {
        guard position < characters.count, separators.contains(characters[position]) else { return nil }
        position += 1
        return characters[position - 1]
    }

    /// The next name, bare or quoted; nil when there is none (at the end, or at a separator), or
    /// when a quote is not closed.
    public mutating func name() -> String? {
        guard position < characters.count else { return nil }
        if characters[position] == "\"" {
            var name = ""
            var index = position + 1
            while index < characters.count {
                if characters[index] == "\"" {
                    if index + 1 < characters.count, characters[index + 1] == "\"" {
                        name.append("\"")
                        index += 2
                        continue
                    }
                    position = index + 1
                    return name
                }
                name.append(characters[index])
                index += 1
            }
            return nil
        }
        let start = position
        while position < characters.count, !separators.contains(characters[position]) { position += 1 }
        return position > start ? String(characters[start..<position]) : nil
    }

    /// `name` as it is written in a SPEC: quoted when it holds a separator, a quote, or is empty.
    public static func written(_ name: String, separators: Set<Character> = [",", ":", "+", "=", "."]) -> String {
        guard name.isEmpty || name.contains(where: { separators.contains($0) || $0 == "\"" }) else { return name }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
