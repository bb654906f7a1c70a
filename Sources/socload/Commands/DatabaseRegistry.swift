import Foundation
import SocloadCore
import SocloadDatabase
import SocloadPostgreSQL
import SocloadSQLite

/// The kinds of database `--db` names, told apart in this file only: a `postgresql://` URL (or
/// `postgres:`) is PostgreSQL, anything else a SQLite file. A new kind of database is one more
/// branch here, for reading (`openLoaded`) and for loading (`openDestination`).
extension DatabaseOptions {
    /// What the database `--db` names can do (one writer or many, distribution, one file...),
    /// known before it is opened: the one place a command learns it.
    func capabilities(_ context: CommandContext) -> DestinationCapabilities {
        PostgreSQLConnectionString(path(context)) != nil ? PostgreSQLDestination.capabilities : SQLiteDestination.capabilities
    }

    /// The loaded database `--db` names, for a read command (a SQLite file must exist). Its
    /// statements are cancelled by a signal or `--timeout`. Unless `acceptsChanges`, nothing it
    /// runs may change the database.
    func openLoaded(_ context: CommandContext, command: CommandSpec, acceptsChanges: Bool = false,
                    watched: Bool = true) throws -> any LoadedDatabase {
        let database: any LoadedDatabase
        if let (connectionString, schema) = try postgreSQL(context, command: command) {
            let connection = try PostgreSQLConnection(connectionString,
                                                      statementTrace: SQLLogFile.writer(environment: context.environment))
            database = PostgreSQLDatabase(connection: connection, schema: schema)
        } else {
            let queue = try openExisting(context, command: command, acceptsChanges: acceptsChanges)
            database = SQLiteLoadedDatabase(queue: queue)
        }
        if watched { context.statements.watch(database.cancelAction) }
        return database
    }

    /// The destination `--db` names, opened (with `SOCLOAD_SQL_LOG`): PostgreSQL for a
    /// `postgresql://` URL, else a SQLite file, checked (`sqliteChecks` runs after the path is). Unless
    /// `mustExist`, a SQLite file that is new is built beside its target (`staged`) and moved into
    /// place only when the load commits. With `geoPackage`, or a path ending in `.gpkg`, the
    /// SQLite file becomes a GeoPackage. In a `batch`, a SQLite file that exists is written
    /// through the batch's one connection (`BatchDatabase.writer`), left open for the next load.
    func openDestination(mustExist: Bool, geoPackage: Bool = false, _ context: CommandContext, command: CommandSpec,
                         batch: BatchDatabase? = nil, sqliteChecks: () throws -> Void = {})
        throws -> (destination: any LoadDestination, close: () -> Void, staged: StagedDatabaseFile?) {
        if let (connectionString, schema) = try postgreSQL(context, command: command) {
            if geoPackage {
                throw UsageError("--geopackage makes a SQLite file a GeoPackage; PostgreSQL keeps geometries with PostGIS",
                                 command: command)
            }
            let connection = try PostgreSQLConnection(connectionString,
                                                      statementTrace: SQLLogFile.writer(environment: context.environment))
            return (PostgreSQLDestination(connection: connection, schema: schema), {}, nil)
        }
        let path = try checkedPath(context, writing: true, command: command)
        if mustExist { try requireExisting(context) }
        try WritableFile.check(path)
        try sqliteChecks()
        let exists = FileManager.default.fileExists(atPath: path)
        let makesGeoPackage = geoPackage || path.lowercased().hasSuffix(".gpkg")
        if geoPackage, !path.lowercased().hasSuffix(".gpkg") {
            StandardError.line("Warning: \(TerminalText.escaped(path)) becomes a GeoPackage; GIS programs expect its name to end in "
                               + ".gpkg (GDAL warns on every other)")
        }
        if let batch, exists {
            let queue = try batch.writer(command: command)
            // Checkpointed when the batch closes the connection: a commit's lock record follows it at once.
            var destination = SQLiteDestination(queue: queue, geoPackage: makesGeoPackage)
            destination.checkpointsAfterEachLoad = false
            return (destination, { queue.inDatabase { $0.releaseCachedStatements() } }, nil)
        }
        let staged = mustExist || exists ? nil : try StagedDatabaseFile(target: path)
        let queue = try DatabaseQueue(path: staged?.path ?? path)
        SQLLogFile.attach(to: queue, environment: context.environment)
        return (SQLiteDestination(queue: queue, geoPackage: makesGeoPackage), { queue.close() }, staged)
    }
}
