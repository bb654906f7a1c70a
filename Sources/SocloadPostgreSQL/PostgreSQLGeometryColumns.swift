import SocloadCore

/// Where the database has PostGIS, the plan's places also get a PostGIS column, filled during
/// the COPY and indexed with GiST: a location (its latitude and longitude) and a point get
/// `geometry(Point, 4326)`, a line or polygon column (WKT or GeoJSON) `geometry(Geometry, 4326)`.
/// Each is named after its column with `_geom`. Without PostGIS nothing changes.
struct PostgreSQLGeometryColumn: Equatable {
    let place: PlanGeometry

    var name: String { place.name }
    /// `Point` or `Geometry`.
    var subtype: String { place.kind == .point ? "Point" : "Geometry" }

    /// The geometry columns for a plan table (empty without PostGIS: `postGISSchema` nil).
    static func columns(for table: PlanTable, postGISSchema: String?) -> [PostgreSQLGeometryColumn] {
        guard postGISSchema != nil else { return [] }
        return PlanGeometry.all(in: table, maximumNameBytes: 63).map(PostgreSQLGeometryColumn.init(place:))
    }

    /// `"schema".geometry(Point, 4326)`
    func declaredType(postGISSchema: String) -> String {
        "\(postGISSchema.quotedDatabaseIdentifier).geometry(\(subtype), 4326)"
    }

    /// The GiST index socload builds on the column.
    func indexName(table: String) -> String {
        LoadPlan.shortenedName("_socload_gist_\(table)_\(name)", toBytes: 63)
    }

    /// The EWKB for one row, or nil (NULL): no value, or one that is not a geometry (a point
    /// column's must be a point; a `Geometry` column takes any shape).
    func value(row: Int, of batch: RowBatch, arena: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let geometry = place.geometry(row: row, of: batch, arena: arena, keepingAnyKind: place.kind != .point) else { return nil }
        return geometry.wellKnownBinary(srid: 4326)
    }

    /// True when the row has a value in the column the geometry comes from.
    func hasSource(row: Int, of batch: RowBatch) -> Bool { place.hasSource(row: row, of: batch) }
}

extension PostgreSQLLoadTransaction {
    /// The schema of the PostGIS extension, or nil when the database does not have it.
    func postGISSchema() throws -> String? {
        try value("SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'postgis'")
            .map { $0.hasPrefix("\"") ? String($0.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") : $0 }
    }
}
