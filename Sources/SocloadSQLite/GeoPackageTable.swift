import SocloadCore

/// How a plan table looks in a GeoPackage: an `INTEGER PRIMARY KEY` first (`fid`, GDAL's
/// name, unless the table has a column of that name), the plan's columns in GeoPackage's types,
/// and at most one geometry column (`PlanGeometry.chosen(in:)`, named as PostGIS's are:
/// `location_geom`), with its RTree spatial index and the index's standard triggers. socload's
/// own key stays the unique index it is in any SQLite database.
struct GeoPackageTable {
    let table: PlanTable
    /// The `INTEGER PRIMARY KEY` (an alias of the rowid, so a row's fid is its rowid).
    let featureID: String
    /// nil: an attributes table (no place, or one not kept as a geometry).
    let geometry: PlanGeometry?

    init(_ table: PlanTable) {
        self.table = table
        let names = Set(table.columns.map { $0.name.lowercased() })
        var featureID = "fid"
        var number = 2
        while names.contains(featureID.lowercased()) {
            featureID = "fid\(number)"
            number += 1
        }
        self.featureID = featureID
        geometry = table.glue == nil ? PlanGeometry.chosen(in: table) : nil
    }

    /// A GeoPackage geometry type name: the one kind the column holds, else `GEOMETRY`.
    var geometryTypeName: String { geometry?.kind?.name ?? "GEOMETRY" }

    /// GeoPackage's column types (clause 1.1.1.1.3): what GDAL and the validator accept. A
    /// decimal is REAL here (GeoPackage has no NUMERIC). A timestamp stays ISO-8601 TEXT, as in
    /// any socload SQLite database: GeoPackage's DATETIME is UTC with milliseconds
    /// (`2015-01-01T00:00:00.000Z`), which a floating timestamp has no zone for, and GDAL warns
    /// on every value of another form.
    static func declaredType(_ type: LogicalType) -> String {
        switch type {
        case .text, .json, .geometry, .timestamp, .floatingTimestamp: return "TEXT"
        case .integer: return "INTEGER"
        case .boolean: return "BOOLEAN"
        case .decimal, .double: return "REAL"
        case .date: return "DATE"
        }
    }

    /// The definitions `CREATE TABLE` starts and ends with around the plan's columns.
    var leadingDefinition: String { "\(featureID.quotedDatabaseIdentifier) INTEGER PRIMARY KEY" }
    var trailingDefinitions: [String] {
        geometry.map { ["\($0.name.quotedDatabaseIdentifier) \(geometryTypeName)"] } ?? []
    }

    // MARK: - The spatial index

    var rtreeName: String? { geometry.map { Self.rtreeName(table: table.name, column: $0.name) } }

    static func rtreeName(table: String, column: String) -> String { "rtree_\(table)_\(column)" }

    /// The names of the RTree's triggers (socload's own: not kept as the user's on a refresh).
    var triggerNames: [String] {
        guard let rtreeName else { return [] }
        return ["insert", "update1", "update2", "update3", "update4", "delete"].map { rtreeName + "_" + $0 }
    }

    /// The index's bounds of a row's geometry (`row`: the table, or `NEW` in a trigger).
    private func bounds(_ row: String) -> String {
        guard let geometry else { return "" }
        let g = geometry.name.quotedDatabaseIdentifier
        return "ST_MinX(\(row).\(g)), ST_MaxX(\(row).\(g)), ST_MinY(\(row).\(g)), ST_MaxY(\(row).\(g))"
    }

    /// Each indexed row's feature id and bounds (min x, max x, min y, max y): what the spatial
    /// index holds (`SQLitePackedRTree` fills it from them).
    var spatialIndexBoxes: String? {
        guard let geometry else { return nil }
        let t = table.name.quotedDatabaseIdentifier
        let g = geometry.name.quotedDatabaseIdentifier
        return "SELECT \(featureID.quotedDatabaseIdentifier), \(bounds(t)) FROM \(t) WHERE \(g) NOTNULL AND NOT ST_IsEmpty(\(g))"
    }

    /// The index, made anew and empty (filled from `spatialIndexBoxes`).
    var spatialIndexTable: [String] {
        guard let rtreeName else { return [] }
        let rtree = rtreeName.quotedDatabaseIdentifier
        return ["DROP TABLE IF EXISTS \(rtree)", "CREATE VIRTUAL TABLE \(rtree) USING rtree(id, minx, maxx, miny, maxy)"]
    }

    /// The triggers that keep the index (GeoPackage 1.3, clause F.3; 1.4's differ, and GDAL 3.6
    /// reads 1.3).
    var spatialIndexTriggers: [String] {
        guard let geometry, let rtreeName else { return [] }
        let rtree = rtreeName.quotedDatabaseIdentifier
        let t = table.name.quotedDatabaseIdentifier
        let g = geometry.name.quotedDatabaseIdentifier
        let i = featureID.quotedDatabaseIdentifier
        let present = "(NEW.\(g) NOTNULL AND NOT ST_IsEmpty(NEW.\(g)))"
        let absent = "(NEW.\(g) ISNULL OR ST_IsEmpty(NEW.\(g)))"
        func trigger(_ suffix: String, _ event: String, _ when: String, _ body: String) -> String {
            "CREATE TRIGGER \((rtreeName + "_" + suffix).quotedDatabaseIdentifier) AFTER \(event) ON \(t) WHEN \(when) BEGIN \(body); END"
        }
        return [
            trigger("insert", "INSERT", present, "INSERT OR REPLACE INTO \(rtree) VALUES (NEW.\(i), \(bounds("NEW")))"),
            trigger("update1", "UPDATE OF \(g)", "OLD.\(i) = NEW.\(i) AND \(present)",
                    "INSERT OR REPLACE INTO \(rtree) VALUES (NEW.\(i), \(bounds("NEW")))"),
            trigger("update2", "UPDATE OF \(g)", "OLD.\(i) = NEW.\(i) AND \(absent)", "DELETE FROM \(rtree) WHERE id = OLD.\(i)"),
            trigger("update3", "UPDATE", "OLD.\(i) != NEW.\(i) AND \(present)",
                    "DELETE FROM \(rtree) WHERE id = OLD.\(i); INSERT OR REPLACE INTO \(rtree) VALUES (NEW.\(i), \(bounds("NEW")))"),
            trigger("update4", "UPDATE", "OLD.\(i) != NEW.\(i) AND \(absent)", "DELETE FROM \(rtree) WHERE id IN (OLD.\(i), NEW.\(i))"),
            trigger("delete", "DELETE", "OLD.\(g) NOT NULL", "DELETE FROM \(rtree) WHERE id = OLD.\(i)"),
        ]
    }
}
