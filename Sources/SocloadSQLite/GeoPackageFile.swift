import SocloadCore
import SocloadDatabase

/// A SQLite database that is a GeoPackage 1.3 (OGC 12-128r17): `application_id` 'GPKG',
/// `user_version` 10300, the required tables, and every table socload loads registered in
/// `gpkg_contents` (`features` with a geometry, else `attributes`), so that GDAL, QGIS and
/// ArcGIS open each as a layer. Once a database is one, every later load keeps it one.
enum GeoPackageFile {
    /// 'GPKG'.
    static let applicationID: Int32 = 0x4750_4B47
    /// 1.3.0. GDAL 3.6 (Debian 12's) does not accept 1.4.
    static let userVersion: Int32 = 10300

    static func isGeoPackage(_ db: Database) throws -> Bool {
        try db.fetchValue(sql: "PRAGMA application_id") == .integer(Int64(applicationID))
    }

    /// Makes the database a GeoPackage (a no-op on one): the header fields, the required tables
    /// and the three spatial reference systems every GeoPackage has.
    static func prepare(_ db: Database) throws {
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(userVersion)")
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY,
              organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT)
            """)
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL,
              identifier TEXT UNIQUE, description TEXT DEFAULT '',
              last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
              min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
              CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id))
            """)
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
              geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
              CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name), CONSTRAINT uk_gc_table_name UNIQUE (table_name),
              CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
              CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id))
            """)
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,
              definition TEXT NOT NULL, scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name))
            """)
        // GDAL's mark (once: GDAL wants one row) that the tables without geometry are those
        // registered as `attributes`: without it, GDAL lists every other table (socload's
        // `_socload_*` bookkeeping) as a layer too.
        try db.execute(sql: """
            INSERT INTO gpkg_extensions SELECT NULL, NULL, 'gdal_aspatial', 'http://gdal.org/geopackage_aspatial.html', 'read-write'
            WHERE NOT EXISTS (SELECT 1 FROM gpkg_extensions WHERE extension_name = 'gdal_aspatial' AND table_name IS NULL)
            """)
        let systems: [[DatabaseValue]] = [
            [.text("Undefined cartesian SRS"), .integer(-1), .text("NONE"), .integer(-1), .text("undefined"),
             .text("undefined cartesian coordinate reference system")],
            [.text("Undefined geographic SRS"), .integer(0), .text("NONE"), .integer(0), .text("undefined"),
             .text("undefined geographic coordinate reference system")],
            [.text("WGS 84 geodetic"), .integer(4326), .text("EPSG"), .integer(4326), .text(wgs84Definition),
             .text("longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid")],
        ]
        for system in systems {
            try db.execute(sql: "INSERT OR IGNORE INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: StatementArguments(positional: system))
        }
    }

    /// EPSG:4326 in OGC WKT (as EPSG publishes it).
    static let wgs84Definition = """
        GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],\
        AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],\
        UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],\
        AUTHORITY["EPSG","4326"]]
        """

    /// Registers a table just written (`GeoPackageTable`): its geometry column, and its RTree
    /// index, built from its rows, with the triggers that keep it. Any other geometry column or
    /// index registered for the table before (another `--geometry`) goes. `extent`: that of every
    /// geometry in the table, when the writer saw them all (nil: measured by `synchronize`).
    static func register(_ layout: GeoPackageTable, db: Database, extent: Geometry.Envelope? = nil) throws {
        let name = layout.table.name
        try dropSpatialIndexes(db: db, where: "table_name = ?", [.text(name)])
        try db.execute(sql: "DELETE FROM gpkg_geometry_columns WHERE table_name = ?", arguments: [name])
        try upsertContents(db: db, table: name, dataType: layout.geometry == nil ? "attributes" : "features")
        let bounds: [DatabaseValue] = extent.map { [.real($0.minX), .real($0.maxX), .real($0.minY), .real($0.maxY)] }
            ?? Array(repeating: .null, count: 4)
        try db.execute(sql: "UPDATE gpkg_contents SET (min_x, max_x, min_y, max_y) = (?, ?, ?, ?) WHERE table_name = ?",
                       arguments: StatementArguments(positional: bounds + [.text(name)]))
        guard let geometry = layout.geometry else { return }
        try db.execute(sql: "INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, 4326, 0, 0)",
                       arguments: [name, geometry.name, layout.geometryTypeName])
        for statement in layout.spatialIndexTable { try db.execute(sql: statement) }
        if let rtree = layout.rtreeName, let boxes = layout.spatialIndexBoxes { try SQLitePackedRTree.fill(rtree, from: boxes, db: db) }
        for statement in layout.spatialIndexTriggers { try db.execute(sql: statement) }
        try db.execute(sql: """
            INSERT OR REPLACE INTO gpkg_extensions VALUES (?, ?, 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree',
            'write-only')
            """, arguments: [name, geometry.name])
    }

    /// After a load: the tables that went are unregistered, a table of yours or a lookup that
    /// fits GeoPackage's rules (an INTEGER PRIMARY KEY, GeoPackage column types) is registered
    /// as attributes, and the extent of each feature table the load changed (`changedTables`,
    /// lowercased) and left unmeasured is measured.
    static func synchronize(_ db: Database, changedTables: Set<String>) throws {
        let tables = Set(try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')"))
        for registered in try db.fetchAll(String.self, sql: "SELECT table_name FROM gpkg_contents") where !tables.contains(registered) {
            try dropSpatialIndexes(db: db, where: "table_name = ?", [.text(registered)])
            try db.execute(sql: "DELETE FROM gpkg_geometry_columns WHERE table_name = ?", arguments: [registered])
            try db.execute(sql: "DELETE FROM gpkg_contents WHERE table_name = ?", arguments: [registered])
        }
        let registered = Set(try db.fetchAll(String.self, sql: "SELECT table_name FROM gpkg_contents"))
        for table in tables.sorted() where !registered.contains(table) && fitsAsAttributes(table, db: db) {
            try upsertContents(db: db, table: table, dataType: "attributes")
        }
        for row in try db.fetchRows(sql: "SELECT table_name, column_name FROM gpkg_geometry_columns") {
            guard case .text(let table) = row[0], case .text(let column) = row[1], changedTables.contains(table.lowercased()) else { continue }
            // Exact, from the geometries (the RTree keeps 32-bit bounds, rounded outwards).
            let g = column.quotedDatabaseIdentifier
            try db.execute(sql: """
                UPDATE gpkg_contents SET (min_x, max_x, min_y, max_y) =
                  (SELECT min(ST_MinX(\(g))), max(ST_MaxX(\(g))), min(ST_MinY(\(g))), max(ST_MaxY(\(g)))
                   FROM \(table.quotedDatabaseIdentifier)) WHERE table_name = ? AND min_x IS NULL
                """, arguments: [table])
        }
    }

    private static func upsertContents(db: Database, table: String, dataType: String) throws {
        let srs: DatabaseValue = dataType == "features" ? .integer(4326) : .null
        try db.execute(sql: """
            INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?1, ?2, ?1, ?3)
            ON CONFLICT (table_name) DO UPDATE SET data_type = excluded.data_type, srs_id = excluded.srs_id,
              last_change = strftime('%Y-%m-%dT%H:%M:%fZ','now')
            """, arguments: StatementArguments(positional: [.text(table), .text(dataType), srs]))
    }

    private static func dropSpatialIndexes(db: Database, where condition: String, _ arguments: [DatabaseValue]) throws {
        let filter = "extension_name = 'gpkg_rtree_index' AND " + condition
        for row in try db.fetchRows(sql: "SELECT table_name, column_name FROM gpkg_extensions WHERE \(filter)",
                                    arguments: StatementArguments(positional: arguments)) {
            guard case .text(let table) = row[0], case .text(let column) = row[1] else { continue }
            try db.execute(sql: "DROP TABLE IF EXISTS \(GeoPackageTable.rtreeName(table: table, column: column).quotedDatabaseIdentifier)")
        }
        try db.execute(sql: "DELETE FROM gpkg_extensions WHERE \(filter)", arguments: StatementArguments(positional: arguments))
    }

    /// True for a table GeoPackage can list as attributes: not its own, SQLite's, an index's
    /// or socload's bookkeeping, with one INTEGER PRIMARY KEY and only GeoPackage column types.
    private static func fitsAsAttributes(_ table: String, db: Database) -> Bool {
        let lowered = table.lowercased()
        guard !["gpkg_", "rtree_", "sqlite_", "_socload_"].contains(where: lowered.hasPrefix) else { return false }
        guard let columns = try? db.fetchRows(sql: "SELECT type, pk FROM pragma_table_info(?)", arguments: [table]) else { return false }
        let valid: Set<String> = ["BOOLEAN", "TINYINT", "SMALLINT", "MEDIUMINT", "INT", "INTEGER", "FLOAT", "DOUBLE", "REAL",
                                  "TEXT", "BLOB", "DATE", "DATETIME"]
        var keys = 0
        for column in columns {
            guard case .text(let type) = column[0], valid.contains(type) else { return false }
            if column[1] != .integer(0) {
                guard type == "INTEGER" else { return false }
                keys += 1
            }
        }
        return keys == 1
    }
}
