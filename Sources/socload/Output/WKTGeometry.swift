import SocloadCore

/// Well-known text (`POINT (-87.6 41.8)`, `MULTIPOLYGON (((...)))`) as a GeoJSON geometry object,
/// the digits as written: what `--format geojson` makes of a geometry column. A Z value is
/// kept as the third coordinate, an M value dropped; EMPTY, a collection or text that is not
/// WKT is nil (the feature's geometry is then null).
enum WKTGeometry {
    private indirect enum Node {
        case position([Substring])
        case list([Node])
    }

    static func geoJSON(_ text: String) -> String? {
        var rest = Substring(text).drop { $0 == " " }
        let letters = rest.prefix { $0.isLetter }
        let type = letters.uppercased()
        rest = rest.dropFirst(letters.count).drop { $0 == " " }
        var hasM = false
        for modifier in ["ZM", "Z", "M"] where rest.uppercased().hasPrefix(modifier) {
            hasM = modifier.contains("M")
            rest = rest.dropFirst(modifier.count).drop { $0 == " " }
            break
        }
        guard let (node, after) = parse(rest), after.allSatisfy({ $0 == " " || $0 == "\n" }) else { return nil }
        let names = ["POINT": "Point", "LINESTRING": "LineString", "POLYGON": "Polygon", "MULTIPOINT": "MultiPoint",
                     "MULTILINESTRING": "MultiLineString", "MULTIPOLYGON": "MultiPolygon"]
        let depths = ["POINT": 1, "LINESTRING": 1, "POLYGON": 2, "MULTIPOINT": 1, "MULTILINESTRING": 2, "MULTIPOLYGON": 3]
        guard let name = names[type], let depth = depths[type] else { return nil }
        var tree = node
        if type == "MULTIPOINT", case .list(let points) = node {
            // MULTIPOINT ((1 2), (3 4)) and MULTIPOINT (1 2, 3 4) alike.
            tree = .list(points.map { point in
                if case .list(let inner) = point, inner.count == 1 { return inner[0] }
                return point
            })
        }
        guard let coordinates = render(tree, depth: depth, dropM: hasM) else { return nil }
        let body = type == "POINT" ? String(coordinates.dropFirst().dropLast()) : coordinates
        return "{\"type\":\"\(name)\",\"coordinates\":\(body)}"
    }

    /// `( ... )` into positions and lists; nil for anything else (EMPTY included).
    private static func parse(_ text: Substring) -> (Node, Substring)? {
        var rest = text.drop { $0 == " " }
        guard rest.first == "(" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " }
        var items: [Node] = []
        while true {
            if rest.first == "(" {
                guard let (inner, after) = parse(rest) else { return nil }
                items.append(inner)
                rest = after.drop { $0 == " " }
            } else {
                let number = rest.prefix { $0 != "," && $0 != ")" }
                let parts = number.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count >= 2, parts.count <= 4, parts.allSatisfy(isJSONNumber) else { return nil }
                items.append(.position(parts))
                rest = rest.dropFirst(number.count)
            }
            guard let next = rest.first else { return nil }
            rest = rest.dropFirst().drop { $0 == " " }
            if next == ")" { return (.list(items), rest) }
            guard next == "," else { return nil }
        }
    }

    /// The coordinates array, checked to be nested `depth` lists deep around positions.
    private static func render(_ node: Node, depth: Int, dropM: Bool) -> String? {
        switch node {
        case .position(let parts):
            guard depth == 0 else { return nil }
            let kept = dropM ? (parts.count == 4 ? Array(parts.prefix(3)) : Array(parts.prefix(2))) : Array(parts.prefix(3))
            return "[" + kept.joined(separator: ",") + "]"
        case .list(let items):
            guard depth > 0, !items.isEmpty else { return nil }
            var rendered: [String] = []
            for item in items {
                guard let text = render(item, depth: depth - 1, dropM: dropM) else { return nil }
                rendered.append(text)
            }
            return "[" + rendered.joined(separator: ",") + "]"
        }
    }

    /// A number JSON can hold as written: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ text: Substring) -> Bool {
        var rest = text.utf8[...]
        func digits() -> Int {
            let count = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
            rest = rest.dropFirst(count)
            return count
        }
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        if rest.first == UInt8(ascii: "0") {
            rest = rest.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            guard digits() > 0 else { return false }
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return rest.isEmpty
    }
}
