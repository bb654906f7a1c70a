import SocloadCore

/// Where the database has PostGIS, the plan's places also get a PostGIS column, filled during
/// the COPY and indexed with GiST: a location (its latitude and longitude) and a point get
/// `geometry(Point, 4326)`, a line or polygon column (WKT or GeoJSON) `geometry(Geometry, 4326)`.
/// Each is named after its column with `_geom`. Without PostGIS nothing changes.
struct PostgreSQLGeometryColumn: Equatable {
    enum Source: Equatable {
        /// WKT or GeoJSON text in this plan column.
        case text(column: Int)
        /// A point from these plan columns.
        case latitudeLongitude(latitude: Int, longitude: Int)
    }

    let name: String
    let source: Source
    /// `Point` or `Geometry`.
    let subtype: String

    /// The geometry columns for a plan table (empty without PostGIS: `postGISSchema` nil).
    static func columns(for table: PlanTable, postGISSchema: String?) -> [PostgreSQLGeometryColumn] {
        guard postGISSchema != nil else { return [] }
        var taken = Set(table.columns.map(\.name))
        func name(_ base: String) -> String {
            var candidate = LoadPlan.shortenedName(base + "_geom", toBytes: 63)
            var number = 2
            while taken.contains(candidate) {
                candidate = LoadPlan.shortenedName(base + "_geom\(number)", toBytes: 63)
                number += 1
            }
            taken.insert(candidate)
            return candidate
        }
        var result: [PostgreSQLGeometryColumn] = []
        for (index, column) in table.columns.enumerated() {
            switch column.source {
            case let .part(cell, .locationLatitude, _):
                guard let longitude = table.columns.firstIndex(where: {
                    if case .part(cell, .locationLongitude, _) = $0.source { return true }
                    return false
                }) else { continue }
                let base = table.columns.first(where: {
                    if case .part(cell, .locationAddress, _) = $0.source { return true }
                    return false
                })?.name ?? column.name
                result.append(PostgreSQLGeometryColumn(name: name(base), source: .latitudeLongitude(latitude: index, longitude: longitude),
                                                       subtype: "Point"))
            case .part(_, .pointGeometry, _) where column.type == .geometry:
                result.append(PostgreSQLGeometryColumn(name: name(column.name), source: .text(column: index), subtype: "Point"))
            case .field where column.type == .geometry:
                result.append(PostgreSQLGeometryColumn(name: name(column.name), source: .text(column: index), subtype: "Geometry"))
            default:
                continue
            }
        }
        return result
    }

    /// `"schema".geometry(Point, 4326)`
    func declaredType(postGISSchema: String) -> String {
        "\(postGISSchema.quotedDatabaseIdentifier).geometry(\(subtype), 4326)"
    }

    /// The GiST index socload builds on the column.
    func indexName(table: String) -> String {
        LoadPlan.shortenedName("_socload_gist_\(table)_\(name)", toBytes: 63)
    }

    /// The EWKB for one row, or nil (NULL): no value, or one that is not a geometry.
    func value(row: Int, of batch: RowBatch, arena: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let first = row * batch.columnCount
        switch source {
        case .text(let column):
            guard case let .text(offset, length) = batch.values[first + column] else { return nil }
            let bytes = UnsafeBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)])
            guard let geometry = WellKnownBinary.geometry(bytes) else { return nil }
            // A point column's value must be a point.
            if subtype == "Point", geometry.count != 25 { return nil }
            return geometry
        case let .latitudeLongitude(latitude, longitude):
            guard let lat = Self.number(batch.values[first + latitude]), let lon = Self.number(batch.values[first + longitude])
            else { return nil }
            return WellKnownBinary.point(longitude: lon, latitude: lat)
        }
    }

    /// True when the row has a value in the column the geometry comes from.
    func hasSource(row: Int, of batch: RowBatch) -> Bool {
        let first = row * batch.columnCount
        switch source {
        case .text(let column): return !batch.values[first + column].isNull
        case let .latitudeLongitude(latitude, longitude):
            return !batch.values[first + latitude].isNull && !batch.values[first + longitude].isNull
        }
    }

    private static func number(_ value: RowBatch.Value) -> Double? {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: return nil
        }
    }
}

extension PostgreSQLLoadTransaction {
    /// The schema of the PostGIS extension, or nil when the database does not have it.
    func postGISSchema() throws -> String? {
        try value("SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'postgis'")
            .map { $0.hasPrefix("\"") ? String($0.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") : $0 }
    }
}
