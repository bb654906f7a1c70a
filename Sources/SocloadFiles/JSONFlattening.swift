import SocloadCore
import SocloadEngine
import SocloadTransport

/// `socload load --flatten`: the members of nested objects become members of the record, named
/// by their path joined with `_` (`{"address": {"city": "Oslo"}}` → `address_city`), to any
/// depth; arrays stay as they are.
///
/// A column stands for one field path in the whole document: names are decided once, from
/// every path the inference pass saw (`columnNames(forPaths:)`). A record's own top-level keys
/// keep their names; a joined path that equals one of them, or another path's joined name,
/// takes the first free suffix `_2`, `_3`, ..., paths in the order they first appear.
package enum JSONFlattening {
    /// Joins the keys of a nested member's path in `flattenPaths`: no column name holds it.
    package static let pathSeparator = "\u{0}"

    /// The record's members with nested objects' members brought up, keyed by their whole path
    /// (keys joined by `pathSeparator`), without renaming anything yet.
    package static func flattenPaths(_ members: [JSONMember]) -> [JSONMember] {
        guard members.contains(where: { if case .object = $0.value { return true } else { return false } }) else { return members }
        var result: [JSONMember] = []
        func add(_ prefix: String?, _ member: JSONMember) {
            let path = prefix.map { $0 + pathSeparator + member.key } ?? member.key
            if case .object(let inner) = member.value, !inner.isEmpty {
                for nested in inner { add(path, nested) }
                return
            }
            result.append(JSONMember(key: path, value: member.value))
        }
        for member in members { add(nil, member) }
        return result
    }

    /// The column name of every path key (`flattenPaths`), decided for the whole document.
    package static func columnNames(forPaths paths: [String]) -> [String: String] {
        var taken = Set(paths.filter { !$0.contains(pathSeparator) })
        var names: [String: String] = [:]
        for path in paths {
            guard path.contains(pathSeparator) else {
                names[path] = path
                continue
            }
            let joined = path.replacingOccurrences(of: pathSeparator, with: "_")
            var free = joined
            var suffix = 2
            while taken.contains(free) {
                free = "\(joined)_\(suffix)"
                suffix += 1
            }
            taken.insert(free)
            names[path] = free
        }
        return names
    }

    /// The record flattened with the document's `names` (a path not in it keeps its joined name).
    package static func flatten(_ members: [JSONMember], names: [String: String]) -> [JSONMember] {
        flattenPaths(members).map { member in
            JSONMember(key: names[member.key] ?? member.key.replacingOccurrences(of: pathSeparator, with: "_"), value: member.value)
        }
    }

    /// One record flattened on its own (its paths are the whole document).
    package static func flatten(_ members: [JSONMember]) -> [JSONMember] {
        let paths = flattenPaths(members)
        return flatten(members, names: columnNames(forPaths: paths.map(\.key)))
    }
}
