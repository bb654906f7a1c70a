/// `socload load --flatten`: the members of nested objects become members of the record, named
/// by their path joined with `_` (`{"address": {"city": "Oslo"}}` → `address_city`), to any
/// depth; arrays stay as they are. A flattened name that the record already has gets the first
/// free suffix `_2`, `_3`, ...
///
///     let flat = JSONFlattening.flatten([JSONMember(key: "address", value: .object([JSONMember(key: "city", value: .string("Oslo"))]))])
public enum JSONFlattening {
    public static func flatten(_ members: [JSONMember]) -> [JSONMember] {
        guard members.contains(where: { if case .object = $0.value { return true } else { return false } }) else { return members }
        var taken = Set(members.map(\.key))
        var result: [JSONMember] = []
        func add(_ prefix: String, _ member: JSONMember) {
            let name = prefix.isEmpty ? member.key : prefix + "_" + member.key
            if case .object(let inner) = member.value, !inner.isEmpty {
                for nested in inner { add(name, nested) }
                return
            }
            var free = name
            if !prefix.isEmpty {
                var suffix = 2
                while taken.contains(free) {
                    free = "\(name)_\(suffix)"
                    suffix += 1
                }
                taken.insert(free)
            }
            result.append(JSONMember(key: free, value: member.value))
        }
        for member in members { add("", member) }
        return result
    }
}
