import SocloadCore
import Foundation
/// The SoQL a user pushes down to the portal: only the matching rows travel.
public struct SoQLQuery: Sendable, Equatable {
    public var select: String?
    public var `where`: String?
    public var order: String?

    public init(select: String? = nil, where condition: String? = nil, order: String? = nil) {
        self.select = select
        self.where = condition
        self.order = order
    }

    public var isEmpty: Bool { select == nil && `where` == nil && order == nil }

    /// The ordering used for paging: the user's, then `:id`, so pages never overlap or skip rows.
    /// (An ordering already by `:id` — `:id`, `:id DESC`, as one of its terms — is total as it is;
    /// `:idx` or `foo:id` are not `:id`.)
    var stableOrder: String {
        guard let order, !order.trimmingCharacters(in: .whitespaces).isEmpty else { return ":id" }
        let terms = order.split(separator: ",").map { $0.split(separator: " ", omittingEmptySubsequences: true).first ?? "" }
        return terms.contains(":id") ? order : "\(order), :id"
    }

    /// A SoQL statement for SODA3: `SELECT :*, * WHERE ... ORDER BY ..., :id`.
    var statement: String { statement(and: nil) }

    /// The statement with `key` (the rows after the previous page) ANDed to the user's condition.
    func statement(and key: String?) -> String {
        var text = "SELECT \(select ?? ":*, *")"
        if let condition = condition(and: key) { text += " WHERE \(condition)" }
        text += " ORDER BY \(stableOrder)"
        return text
    }

    /// The user's `where` and `key` joined by AND (the user's in parentheses, so its ORs stay
    /// inside); nil when there is neither.
    func condition(and key: String?) -> String? {
        let user = `where`.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        switch (user, key) {
        case (nil, nil): return nil
        case (let user?, nil): return user
        case (nil, let key?): return key
        case (let user?, let key?): return "(\(user)) AND \(key)"
        }
    }

    /// Identifies the slice of the dataset a table holds, for the catalog: a table loaded with a
    /// filter is never "up to date" for a request without it.
    var signature: String {
        [("select", select), ("where", `where`), ("order", order)]
            .compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: "&")
    }
}

/// Percent-encoding for query strings: everything but unreserved characters is encoded, so
/// `&`, `=`, `+`, quotes and non-ASCII text in SoQL arrive intact.
enum QueryEncoding {
    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    /// `key=value&...` with each value encoded; keys (`$limit`) are sent as they are.
    static func query(_ parameters: [(String, String)]) -> String {
        parameters.map { "\($0.0)=\(encode($0.1))" }.joined(separator: "&")
    }
}
