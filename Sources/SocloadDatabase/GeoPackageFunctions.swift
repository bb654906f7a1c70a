import CSQLite
import SocloadCore

/// The SQL functions a GeoPackage's RTree triggers call (`ST_IsEmpty`, `ST_MinX`, `ST_MaxX`,
/// `ST_MinY`, `ST_MaxY`, GeoPackage 1.3 clause F.3), registered on every connection socload
/// opens, so that its own writes and yours through `socload query` keep the spatial index.
/// Other programs writing to the table need them too (GDAL and QGIS have them; the plain
/// `sqlite3` shell does not, and its inserts fail with "no such function: ST_IsEmpty").
/// Each reads a GeoPackage geometry blob's header (`GeoPackageBinary.header(of:)`); NULL or
/// anything else gives NULL.
enum GeoPackageFunctions {
    static func register(on connection: OpaquePointer) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        // The function's number travels as its user data pointer (1...5), not as a capture.
        for (number, name) in ["ST_IsEmpty", "ST_MinX", "ST_MaxX", "ST_MinY", "ST_MaxY"].enumerated() {
            sqlite3_create_function_v2(connection, name, 1, flags, UnsafeMutableRawPointer(bitPattern: number + 1), { context, _, arguments in
                guard let context, let argument = arguments?[0] else { return }
                let which = Int(bitPattern: sqlite3_user_data(context))
                guard sqlite3_value_type(argument) == SQLITE_BLOB, let start = sqlite3_value_blob(argument) else {
                    sqlite3_result_null(context)
                    return
                }
                let blob = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: Int(sqlite3_value_bytes(argument)))
                guard let header = GeoPackageBinary.header(of: blob) else {
                    sqlite3_result_null(context)
                    return
                }
                if which == 1 {
                    sqlite3_result_int(context, header.isEmpty ? 1 : 0)
                    return
                }
                guard let envelope = header.envelope else {
                    sqlite3_result_null(context)
                    return
                }
                let values = [envelope.minX, envelope.maxX, envelope.minY, envelope.maxY]
                sqlite3_result_double(context, values[which - 2])
            }, nil, nil, nil)
        }
    }
}
