/// socload for app developers, in one import: `import SocloadKit` gives every library an app
/// uses — the values, conditions and plans (`SocloadCore`), SQLite reading and writing with
/// `Codable` records (`SocloadDatabase`), loading (`DatasetLoader`,
/// `LoadSpec`: `SocloadSocrata`, on `SocloadEngine`, `SocloadFiles` and
/// `SocloadTransport`), both destinations (`SocloadSQLite`, `SocloadPostgreSQL`), projects
/// (`Project`: `SocloadProject`), and Parquet out (`ParquetExport`: `SocloadParquet`).
///
/// The layer libraries stay products of their own, for code that wants less (a tool that only
/// reads a database needs `SocloadDatabase`); the layers import only what they use.
@_exported import SocloadCore
@_exported import SocloadDatabase
@_exported import SocloadEngine
@_exported import SocloadFiles
@_exported import SocloadPostgreSQL
@_exported import SocloadSQLite
@_exported import SocloadSocrata
@_exported import SocloadTransport
@_exported import SocloadProject
@_exported import SocloadParquet
