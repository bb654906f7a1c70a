import SocloadDatabase
import SocloadSocrata

/// JSON output: one array of objects, or (`lines`) one object per line (NDJSON). Integers stay
/// integers, reals stay reals, NULL is `null`, blobs are base64 text; duplicate column names get a
/// suffix (`id`, `id_2`).
final class JSONWriter: ResultWriter {
    private let output: OutputSink
    private let lines: Bool
    private var keys: [String] = []
    private var rowCount = 0

    init(output: OutputSink, lines: Bool) {
        self.output = output
        self.lines = lines
    }

    func begin(columns: [String]) {
        keys = Self.uniqueKeys(columns).map(Self.quoted)
        if !lines { output.write("[") }
    }

    func write(_ values: [DatabaseValue]) {
        var object = "{"
        for (index, value) in values.enumerated() {
            if index > 0 { object += "," }
            object += keys[index] + ":" + Self.literal(value)
        }
        object += "}"
        if lines {
            output.write(object + "\n")
        } else {
            output.write((rowCount == 0 ? "\n" : ",\n") + object)
        }
        rowCount += 1
    }

    func finish() {
        if !lines { output.write(rowCount == 0 ? "]\n" : "\n]\n") }
        output.flush()
    }

    /// Column names made unique: the second `id` becomes `id_2` (or `id_3` if `id_2` is taken).
    static func uniqueKeys(_ columns: [String]) -> [String] {
        var used = Set<String>()
        return columns.map { name in
            var key = name
            var suffix = 2
            while used.contains(key) {
                key = "\(name)_\(suffix)"
                suffix += 1
            }
            used.insert(key)
            return key
        }
    }

    static func literal(_ value: DatabaseValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let integer): return String(integer)
        case .real(let real): return real.isFinite ? ValueText.real(real) : "null"
        case .text(let text): return quoted(text)
        case .blob(let data): return quoted(data.base64EncodedString())
        }
    }

    /// A JSON string literal (the library's escaping, one definition for every JSON socload writes).
    static func quoted(_ text: String) -> String {
        JSONValue.quoted(text)
    }
}
