import SocloadCore

/// The geometries a table's plan has (`PlanGeometry`), as an export writes them (`GeoColumn`),
/// and the file's `geo` metadata.
enum GeoColumns {
    /// A GeoColumn per geometry of the plan of `entry`, its source found among the columns the
    /// export reads (`names`, in order, without the geometries' own names: `names(of:)`); empty
    /// for a table without a plan or a geometry.
    static func places(of entry: CatalogEntry?, in names: [String]) -> [GeoColumn] {
        guard let table = entry?.plan?.mainTable else { return [] }
        var taken = Set(names.map { $0.lowercased() })
        let places = PlanGeometry.all(in: table)
        func index(_ column: Int) -> Int? {
            let name = table.columns[column].name.lowercased()
            return names.firstIndex { $0.lowercased() == name }
        }
        func bboxName(_ geometry: String, first: Bool) -> String {
            var candidate = first ? "bbox" : geometry + "_bbox"
            var number = 2
            while taken.contains(candidate.lowercased()) {
                candidate = (first ? "bbox" : geometry + "_bbox") + String(number)
                number += 1
            }
            taken.insert(candidate.lowercased())
            return candidate
        }
        var columns: [GeoColumn] = []
        for place in places {
            let source: GeoColumn.Source
            switch place.source {
            case .text(let column):
                guard let at = index(column) else { continue }
                source = .text(at)
            case let .latitudeLongitude(latitude, longitude):
                guard let lat = index(latitude), let lon = index(longitude) else { continue }
                source = .point(latitude: lat, longitude: lon)
            }
            taken.insert(place.name.lowercased())
            columns.append(GeoColumn(name: place.name, source: source, kind: place.kind, bboxName: bboxName(place.name, first: columns.isEmpty)))
        }
        return columns
    }

    /// The names of the plan's geometries (lower-cased): a database's own copy of one (PostGIS's
    /// `_geom` columns, a GeoPackage's geometry) is not read, SQLite's file and PostgreSQL's alike.
    static func names(of entry: CatalogEntry?) -> Set<String> {
        guard let table = entry?.plan?.mainTable else { return [] }
        return Set(PlanGeometry.all(in: table).map { $0.name.lowercased() })
    }

    /// The `geo` metadata of GeoParquet 1.1: the version, the primary column (the first), each column's.
    static func metadata(_ columns: [GeoColumn]) -> String {
        JSONValue.object([
            JSONMember(key: "version", value: .string("1.1.0")),
            JSONMember(key: "primary_column", value: .string(columns.first?.name ?? "")),
            JSONMember(key: "columns", value: .object(columns.map { JSONMember(key: $0.name, value: $0.metadata) })),
        ]).jsonText
    }
}
