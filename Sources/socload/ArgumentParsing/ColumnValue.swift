import Foundation
import SocloadCore

/// `column=value`, as the condition options take it.
struct ColumnValue: ExpressibleByArgument {
    let column: String
    let value: String

    /// The column ends at the first `=` outside double quotes (a quoted name may hold one).
    init?(argument: String) {
        var quoted = false
        guard let equals = argument.indices.first(where: { index in
            if argument[index] == "\"" { quoted.toggle() }
            return !quoted && argument[index] == "="
        }), equals != argument.startIndex else { return nil }
        column = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
    }

    static var expectation: String { "COLUMN=VALUE" }
}
