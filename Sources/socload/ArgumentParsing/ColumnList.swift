import Foundation
import SocloadCore

/// `a,b,c`: column names (blanks dropped).
struct ColumnList: ExpressibleByArgument {
    let names: [String]

    init?(argument: String) {
        names = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static var expectation: String { "column names separated by commas" }
}
