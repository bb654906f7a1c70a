// swift-tools-version:6.0
// socload: turns Socrata open-data portals into local SQLite databases.
import PackageDescription

let package = Package(
    name: "socload",
    products: [
        .executable(name: "socload", targets: ["socload"]),
        // For app developers: every library in one import (`import SocloadKit`).
        .library(name: "SocloadKit", targets: ["SocloadKit"]),
        // Deprecated: the layer products of the releases before SocloadKit, kept for one release so
        // that existing Package.swift files build; depend on SocloadKit instead.
        .library(name: "SocloadCore", targets: ["SocloadCore"]),
        .library(name: "SocloadDatabase", targets: ["SocloadDatabase"]),
        .library(name: "SocloadSocrata", targets: ["SocloadSocrata"]),
        .library(name: "SocloadSQLite", targets: ["SocloadSQLite"]),
        .library(name: "SocloadPostgreSQL", targets: ["SocloadPostgreSQL"]),
    ],
    targets: [
        // C boundary: system libraries plus typed wrappers for their variadic functions.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // gzip for the download cache (`"cache": DIR`).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // zstd and snappy, for Parquet pages (`socload export --format parquet`).
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .systemLibrary(
            name: "CSnappy",
            pkgConfig: "snappy",
            providers: [.apt(["libsnappy-dev"])]
        ),

        // The core, with no C dependency: cell values, conditions (`Predicate`) and the date
        // rules, identifier quoting, and the SQL both databases share (lookups, glue tables).
        .target(name: "SocloadCore"),

        // The SQLite wrapper: connection, statements, serial queue, row decoding (re-exports the core).
        .target(name: "SocloadDatabase", dependencies: ["SocloadCore", "CSQLite"]),

        // Bytes from where they are, for any source: HTTP (libcurl, redirects, retries, the
        // download cache, gzip) and files (chunked reads, standard input, signatures).
        .target(name: "SocloadTransport", dependencies: ["SocloadCore", "CCurl", "CZlib"]),

        // The engine, on the core alone: row sources and the one pipeline every load runs them in.
        .target(name: "SocloadEngine", dependencies: ["SocloadCore"]),

        // The file sources: JSON, NDJSON and CSV documents read as records, their types inferred
        // from every value, spooled from a URL or standard input.
        .target(name: "SocloadFiles", dependencies: ["SocloadCore", "SocloadEngine", "SocloadTransport"]),

        // Socrata layer: dataset references, metadata, the Socrata sources (rows.json, SODA
        // pages), and the loader. No SQLite in it.
        .target(name: "SocloadSocrata", dependencies: ["SocloadCore", "SocloadEngine", "SocloadFiles", "SocloadTransport", "SocloadPlatforms"]),

        // The other platforms' sources: CKAN's DataStore, ArcGIS REST layers and OpenDataSoft's
        // Explore API, each described from the platform's own metadata and read page by page.
        .target(name: "SocloadPlatforms", dependencies: ["SocloadCore", "SocloadEngine", "SocloadFiles", "SocloadTransport"]),

        // The SQLite destination: the plan's DDL, the bulk insert, keys after the rows, the catalog.
        // renameat2 (RENAME_NOREPLACE), which Swift's Glibc module does not show.
        .systemLibrary(name: "CFileSystem"),
        // glibc's mallopt (malloc.h), for the command's arena limit.
        .systemLibrary(name: "CMalloc"),
        .target(name: "SocloadSQLite", dependencies: ["SocloadCore", "SocloadDatabase", "CSQLite", "CFileSystem"]),

        // The PostgreSQL destination: libpq, binary COPY into a new table swapped in at the end.
        .systemLibrary(
            name: "CPostgreSQL",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // It does not link libsqlite3: the core gives it values, conditions and the shared SQL.
        .target(name: "SocloadPostgreSQL", dependencies: ["SocloadCore", "CPostgreSQL"]),

        // Projects (`socload.json`): entries decoded into load specs, catalog searches, the lock
        // file, and a refresh from Swift into either database.
        .target(name: "SocloadProject",
                dependencies: ["SocloadCore", "SocloadDatabase", "SocloadSocrata", "SocloadSQLite", "SocloadPostgreSQL"]),

        // The umbrella for app developers: re-exports the libraries an app uses.
        // Parquet out (`socload export`): the file format written here (Thrift compact metadata,
        // dictionary and RLE encodings, zstd or snappy pages), a table's rows typed by its plan.
        .target(name: "SocloadParquet", dependencies: ["SocloadCore", "SocloadEngine", "CZstd", "CSnappy"]),

        .target(name: "SocloadKit",
                dependencies: ["SocloadCore", "SocloadDatabase", "SocloadEngine", "SocloadFiles", "SocloadPostgreSQL", "SocloadSQLite",
                               "SocloadSocrata", "SocloadTransport", "SocloadProject", "SocloadParquet", "SocloadPlatforms"]),

        // Command-line front end: argument parsing, commands, output formats, progress.
        .executableTarget(name: "socload",
                         dependencies: ["SocloadDatabase", "SocloadSocrata", "SocloadSQLite", "SocloadPostgreSQL", "SocloadProject",
                                        "SocloadParquet", "SocloadPlatforms", "CMalloc"]),

        // What the tools and the tests share, outside the production targets and free of test
        // code: the reference decoder and the converter's self-checks (the fuzzer's oracle), a
        // seeded random generator, a loopback HTTP server.
        .target(name: "SocloadToolKit", dependencies: ["SocloadCore", "SocloadSocrata"], path: "Tools/SocloadToolKit"),

        // Writes the bundled sample datasets (Datasets/*.json), deterministically.
        .executableTarget(name: "socload-datasets",
                          dependencies: ["SocloadDatabase", "SocloadSocrata", "SocloadSQLite", "SocloadToolKit"],
                          path: "Tools/DatasetGenerator"),

        // libFuzzer target for the reader (`make fuzz`); the driver header is used in fuzzing builds only.
        .systemLibrary(name: "CFuzzerDriver", path: "Tools/CFuzzerDriver"),
        .executableTarget(name: "socload-fuzz", dependencies: ["SocloadSocrata", "SocloadToolKit", "CFuzzerDriver"],
                          path: "Tools/socload-fuzz"),

        // The core alone: plans, values, digests, the JSON it reads in place (no C, no database).
        .testTarget(name: "SocloadCoreTests", dependencies: ["SocloadCore"]),
        // The engine alone: the pipeline every load runs its source in (no HTTP, no database).
        .testTarget(name: "SocloadEngineTests", dependencies: ["SocloadCore", "SocloadEngine"]),
        // The Parquet writer alone: its encodings and metadata, read back by pyarrow and DuckDB.
        .testTarget(name: "SocloadParquetTests", dependencies: ["SocloadCore", "SocloadParquet", "SocloadTestSupport"]),
        .testTarget(name: "SocloadDatabaseTests", dependencies: ["SocloadCore", "SocloadDatabase"]),
        // The platforms' URL forms, type names and geometries, without a server.
        .testTarget(name: "SocloadPlatformsTests", dependencies: ["SocloadCore", "SocloadPlatforms"]),
        // Shared by the test targets: a loopback HTTP server and fixture paths.
        .target(name: "SocloadTestSupport", dependencies: ["SocloadCore", "SocloadSocrata", "SocloadPostgreSQL", "SocloadToolKit"],
                path: "Tests/SocloadTestSupport"),
        .testTarget(name: "SocloadSocrataTests",
                    dependencies: ["SocloadSocrata", "SocloadTransport", "SocloadSQLite", "SocloadDatabase", "SocloadTestSupport"]),
        // The PostgreSQL destination against a real server (scripts/with-postgres.sh starts one).
        .testTarget(name: "SocloadPostgreSQLTests",
                    dependencies: ["SocloadPostgreSQL", "SocloadSocrata", "SocloadSQLite", "SocloadDatabase",
                                   "SocloadTestSupport"]),
        // The contract every destination keeps, run on SQLite, PostgreSQL and a third destination
        // that lives in these tests only (NDJSON files).
        .testTarget(name: "SocloadDestinationTests",
                    dependencies: ["SocloadCore", "SocloadSocrata", "SocloadSQLite", "SocloadDatabase", "SocloadPostgreSQL",
                                   "SocloadTestSupport"]),
        // Load specs and projects from Swift: entries decoded, a refresh into a real SQLite file.
        .testTarget(name: "SocloadProjectTests",
                    dependencies: ["SocloadProject", "SocloadSocrata", "SocloadSQLite", "SocloadDatabase", "SocloadPostgreSQL",
                                   "SocloadTestSupport"]),
        // The README's and the doc comments' Swift examples, compiled and run.
        .testTarget(name: "SocloadExamplesTests",
                    dependencies: ["SocloadKit", "SocloadPlatforms", "SocloadDatabase", "SocloadSocrata", "SocloadSQLite", "SocloadPostgreSQL",
                                   "SocloadTestSupport"]),
        .testTarget(name: "SocloadCLITests",
                    dependencies: ["socload", "socload-datasets", "SocloadDatabase", "SocloadSocrata", "SocloadSQLite",
                                   "SocloadPostgreSQL", "SocloadTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
