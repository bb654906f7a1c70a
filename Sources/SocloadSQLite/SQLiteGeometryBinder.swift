import SocloadCore
import CSQLite
import SocloadDatabase

/// Binds a GeoPackage table's geometry (`GeoPackageTable.geometry`) for each row a writer
/// inserts: the place's value as GeoPackage binary, or NULL for a row without one, and for a
/// value that is not a geometry (counted, for one warning: `notes(table:)`).
final class SQLiteGeometryBinder {
    let place: PlanGeometry
    private var unreadable = UnreadableGeometries()
    /// The extent of the geometries bound so far.
    private var bounds = Geometry.Envelope.empty
    /// nil: none bound yet.
    var extent: Geometry.Envelope? { bounds.isEmpty ? nil : bounds }

    init(place: PlanGeometry) {
        self.place = place
    }

    /// The binder a writer of `table` needs in this database: nil when it is no GeoPackage or
    /// the table keeps no geometry.
    static func binder(for layout: GeoPackageTable?) -> SQLiteGeometryBinder? {
        layout?.geometry.map(SQLiteGeometryBinder.init(place:))
    }

    func bind(row: Int, of batch: RowBatch, arena: UnsafeBufferPointer<UInt8>, at parameter: Int32, to statement: Statement) throws {
        let code: Int32
        if let geometry = place.geometry(row: row, of: batch, arena: arena) {
            let envelope = geometry.envelope
            bounds.add(envelope)
            let blob = GeoPackageBinary.encode(geometry, envelope: envelope)
            code = blob.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(statement.handle, parameter, bytes.baseAddress, sqlite3_uint64(bytes.count), socload_sqlite3_transient())
            }
        } else {
            if place.hasSource(row: row, of: batch) { unreadable.count(column: place.name, row: batch.firstRowNumber + row) }
            code = sqlite3_bind_null(statement.handle, parameter)
        }
        if code != SQLITE_OK { throw DatabaseError(extendedResultCode: code, message: "cannot bind a geometry", sql: statement.sql) }
    }

    func notes(table: String) -> [String] { unreadable.notes(table: table) }
}
