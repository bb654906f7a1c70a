import Foundation
import SocloadTestSupport
import XCTest

/// `socload fetch URL` of a CKAN resource, an ArcGIS layer and an OpenDataSoft dataset, on a
/// loopback server that pages as each platform does (`FakePlatformPortal`): typed from each
/// platform's metadata, every page read, up to date until the data changes, changes counted,
/// verified, on SQLite and PostgreSQL; a server that pages wrongly or cuts a body short is one
/// line, exit 69, and the table is left as it was.
final class PlatformFetchTests: DocumentTestCase {
    /// A CSV field as `query --format csv` writes it.
    private func quoted(_ text: String) -> String {
        text.contains { $0 == "," || $0 == "\"" || $0 == "\n" } ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    private func fetch(_ url: String, db: String, _ more: [String] = []) throws -> SocloadRun {
        try socload(["fetch", url] + more, db: db)
    }

    func testEachPlatformIsTypedFromItsOwnMetadataAndEveryPageIsRead() throws {
        let portal = try FakePlatformPortal(rows: 2_345, pageCap: 1000)
        for (db, postgreSQL) in try databases() {
            _ = postgreSQL
            try succeed(["fetch", portal.ckanURL], db: db)
            XCTAssertEqual(try types("parks", db: db), ["_id=integer", "name=text", "amount=decimal", "ratio=double", "open=boolean",
                                                        "day=date", "at=floating_timestamp", "tags=json"])
            try succeed(["fetch", portal.arcgisURL], db: db)
            XCTAssertEqual(try types("parks_0", db: db), ["OBJECTID=integer", "NAME=text", "RATIO=double", "KIND=integer",
                                                          "AT=timestamp", "geometry=geometry"])
            try succeed(["fetch", portal.odsURL, "--table", "parks_ods"], db: db)
            XCTAssertEqual(try types("parks_ods", db: db), ["id=integer", "name=text", "ratio=double", "day=date", "at=timestamp",
                                                            "tags=json", "location=geometry"])
            for table in ["parks", "parks_0", "parks_ods"] {
                XCTAssertEqual(try csv("select count(*) from \(table)", db: db).last, "2345", table)
            }
            // The three agree on the values they share, row by row.
            let row = FakePlatformPortal.row(1234)
            XCTAssertEqual(try csv("select name, ratio, day from parks where _id = 1234", db: db).last,
                           "\(quoted(row.name)),\(row.ratio),\(row.day)")
            XCTAssertEqual(try csv("select \"NAME\", \"RATIO\", \"AT\" from parks_0 where \"OBJECTID\" = 1234", db: db).last,
                           "\(quoted(row.name)),\(row.ratio),\(FakePlatformPortal.floating(row.at))Z")
            XCTAssertEqual(try csv("select name, at from parks_ods where id = 1234", db: db).last,
                           "\(quoted(row.name)),\(FakePlatformPortal.floating(row.at))Z")
            XCTAssertEqual(try csv("select amount, tags from parks where _id = 1234", db: db).last?.replacingOccurrences(of: ", ", with: ","),
                           "\(row.amount),\(quoted("[\"t4\",\"é1\"]"))")
            // Every platform states its row count: verify compares it.
            for table in ["parks", "parks_0"] {
                let verify = try socload(["verify", table], db: db)
                XCTAssertEqual(verify.status, 0, verify.stderr)
                XCTAssertTrue(verify.stdout.contains("non_null,2345,2345,yes"), verify.stdout)
            }
        }
        // CKAN: one JSON dump a load, no pages.
        XCTAssertEqual(portal.server.requests.filter { $0.route == "/datastore/dump/res-1" }.map { $0.query["format"] }, ["json", "json"])
        XCTAssertFalse(portal.server.requests.contains { $0.route.hasSuffix("datastore_search") && $0.query["limit"] != "0" })
        // A CKAN without the dump: pages of 1,000, three (then none: the third is short, the total reached).
        portal.offersDump = false
        let paged = directory.path("paged.sqlite")
        try succeed(["fetch", portal.ckanURL], db: paged)
        XCTAssertEqual(try csv("select count(*), sum(_id), max(name) from parks", db: paged).last,
                       try csv("select count(*), sum(_id), max(name) from parks", db: directory.path("documents.sqlite")).last)
        let pages = portal.server.requests.filter { $0.route.hasSuffix("datastore_search") && $0.query["limit"] != "0" }
        XCTAssertEqual(pages.map { $0.query["offset"] }, ["0", "1000", "2000"])
        XCTAssertTrue(pages.allSatisfy { $0.query["sort"] == "_id" })
        let queries = portal.server.requests.filter { $0.route.hasSuffix("/query") && $0.query["returnCountOnly"] == nil }
        XCTAssertEqual(queries.prefix(3).map { $0.query["where"] }, ["1=1", "OBJECTID > 1000", "OBJECTID > 2000"])
        XCTAssertTrue(queries.allSatisfy { $0.query["outSR"] == "4326" })
    }

    func testARefreshIsConditionalAndCountsWhatChanged() throws {
        let portal = try FakePlatformPortal(rows: 300, pageCap: 100)
        let db = directory.path("refresh.sqlite")
        for (url, table) in [(portal.ckanURL, "parks"), (portal.arcgisURL, "parks_0"), (portal.odsURL, "parks_ods")] {
            try succeed(["fetch", url, "--table", table], db: db)
            let before = portal.rowRequests
            let again = try succeed(["fetch", url, "--table", table], db: db)
            XCTAssertTrue(again.stderr.contains("is up to date"), again.stderr)
            XCTAssertEqual(portal.rowRequests, before, "an unchanged dataset reads no page: \(url)")
        }
        portal.update { rows in
            rows[4].name = "Renamed park"
            rows.removeLast()
        }
        for (url, table) in [(portal.ckanURL, "parks"), (portal.arcgisURL, "parks_0")] {
            let run = try succeed(["fetch", url, "--json", "--table", table], db: db)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(report["changed"] as? Int, 1, "\(table): \(run.stdout)")
            XCTAssertEqual(report["removed"] as? Int, 1, "\(table): \(run.stdout)")
            XCTAssertEqual(report["unchanged"] as? Int, 298, "\(table): \(run.stdout)")
            XCTAssertEqual(try csv("select count(*) from \(table)", db: db).last, "299")
        }
        let forced = try succeed(["fetch", portal.odsURL, "--table", "parks_ods", "--force"], db: db)
        XCTAssertTrue(forced.stderr.contains("Loaded 299 rows"), forced.stderr)
    }

    func testAServerThatPagesWronglyOrCutsABodyIsOneLineAndTheTableIsKept() throws {
        let portal = try FakePlatformPortal(rows: 250, pageCap: 100)
        let db = directory.path("faults.sqlite")
        for (url, table) in [(portal.ckanURL, "parks"), (portal.arcgisURL, "parks_0"), (portal.odsURL, "parks_ods")] {
            try succeed(["fetch", url, "--table", table], db: db)
        }
        portal.update { $0.append(FakePlatformPortal.row(251)) }
        let cases: [(FakePlatformPortal.Fault, String, String, dump: Bool)] = [
            (.ignoresPaging, portal.ckanURL, "page 2 repeats rows of an earlier page", false),
            (.ignoresPaging, portal.arcgisURL, "page 2 repeats rows of an earlier page", false),
            (.endlessTransferLimit, portal.arcgisURL, "transfer limit never clears", false),
            (.truncatedPages, portal.ckanURL, "the dump ends inside its records", true),
            (.truncatedPages, portal.ckanURL, "a transfer cut short", false), (.truncatedPages, portal.arcgisURL, "a transfer cut short", false),
            (.truncatedPages, portal.odsURL, "the export ends inside a record", false),
            (.statesMoreRows, portal.odsURL, "the export ends after 251 of the 256 records the dataset counts", false),
        ]
        for (fault, url, words, dump) in cases {
            portal.fault = fault
            portal.offersDump = dump
            let run = try fetch(url, db: db, ["--table", url == portal.odsURL ? "parks_ods" : url == portal.ckanURL ? "parks" : "parks_0"])
            XCTAssertEqual(run.status, 69, "\(fault) \(url): \(run.stderr)")
            let lines = run.stderr.split(whereSeparator: \.isNewline)
            XCTAssertEqual(lines.count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(words), "\(fault): \(run.stderr)")
        }
        portal.fault = nil
        for table in ["parks", "parks_0", "parks_ods"] {
            XCTAssertEqual(try csv("select count(*) from \(table)", db: db).last, "250", "the previous copy is kept")
        }
        // Paged platforms whose count is not what came: loaded, said at once, and verify fails.
        portal.fault = .statesMoreRows
        for (url, table, platform) in [(portal.ckanURL, "parks", "CKAN"), (portal.arcgisURL, "parks_0", "ArcGIS")] {
            let run = try succeed(["fetch", url, "--table", table], db: db)
            XCTAssertTrue(run.stderr.contains("251 rows were loaded, and \(platform) counts 256 for this dataset"), run.stderr)
            let verify = try socload(["verify", table], db: db)
            XCTAssertEqual(verify.status, 65, verify.stdout + verify.stderr)
            XCTAssertTrue(verify.stdout.contains("256,251,NO"), verify.stdout)
        }
    }

    func testAnArcGISServerBefore10Point3IsReadByItsIDs() throws {
        let portal = try FakePlatformPortal(rows: 1_234, pageCap: 1000)
        portal.oldArcGIS = true
        let db = directory.path("old.sqlite")
        try succeed(["fetch", portal.arcgisURL], db: db)
        XCTAssertEqual(try csv("select count(*), count(distinct OBJECTID), min(OBJECTID), max(OBJECTID) from parks_0", db: db).last,
                       "1234,1234,1,1234")
        XCTAssertTrue(portal.server.requests.contains { $0.query["returnIdsOnly"] == "true" })
        XCTAssertEqual(portal.server.requests.filter { $0.query["objectIds"] != nil }.count, 3, "chunks of 500 ids")
        XCTAssertEqual(try csv("select geometry from parks_0 where OBJECTID = 2", db: db).last,
                       "POINT (\(FakePlatformPortal.row(2).longitude) \(FakePlatformPortal.row(2).latitude))")
    }

    func testURLFormsAndThePlatformFlag() throws {
        let portal = try FakePlatformPortal(rows: 5)
        let db = directory.path("forms.sqlite")
        try succeed(["fetch", portal.baseURL + "/api/3/action/datastore_search?resource_id=res-1", "--table", "by_action"], db: db)
        try succeed(["fetch", portal.baseURL + "/dataset/parks", "--table", "by_package"], db: db)
        try succeed(["fetch", portal.arcgisURL + "/query?where=1%3D1&f=json", "--table", "by_query"], db: db)
        try succeed(["fetch", portal.baseURL + "/api/explore/v2.1/catalog/datasets/parks/records?limit=10", "--table", "by_api"], db: db)
        for table in ["by_action", "by_package", "by_query", "by_api"] {
            XCTAssertEqual(try csv("select count(*) from \(table)", db: db).last, "5", table)
        }
        let wrong = try fetch(portal.baseURL + "/some/page", db: db, ["--platform", "arcgis"])
        XCTAssertEqual(wrong.status, 64, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("no ArcGIS dataset URL"), wrong.stderr)
        let soql = try fetch(portal.ckanURL, db: db, ["--where", "a = 1"])
        XCTAssertEqual(soql.status, 64, soql.stderr)
        XCTAssertTrue(soql.stderr.contains("--where is for Socrata datasets"), soql.stderr)
        // A default name that another dataset's table has is not taken from it.
        try succeed(["fetch", portal.ckanURL], db: db)
        let taken = try fetch(portal.odsURL, db: db)
        XCTAssertEqual(taken.status, 64, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("the load would write parks, but it holds another dataset (\(portal.ckanURL))"), taken.stderr)
        XCTAssertEqual(try csv("select count(*) from parks where _id is not null", db: db).last, "5")
        // sync is SODA's: a platform's table is refreshed by fetch, and said so.
        let sync = try socload(["sync", "by_query"], db: db)
        XCTAssertEqual(sync.status, 64, sync.stderr)
        XCTAssertTrue(sync.stderr.contains("by_query was loaded from ArcGIS, and sync reads Socrata's SODA"), sync.stderr)
        let plan = try succeed(["fetch", portal.arcgisURL, "--dry-run"], db: db)
        XCTAssertTrue(plan.stdout.contains("parks_0"), plan.stdout)
    }

    func testEachPortalsCatalogIsSearchedAndItsPagesFetch() throws {
        let portal = try FakePlatformPortal(rows: 12)
        let db = directory.path("search.sqlite")
        for (platform, words, table) in [("ckan", "parks", "parks"), ("arcgis", "park green", "parks_0"), ("ods", "parks", "parks")] {
            let run = try SocloadProcess.run(["search", words, "--platform", platform, "--domain", portal.baseURL, "--rows", "--format", "csv"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let lines = run.stdout.split(whereSeparator: \.isNewline).map { CSVLine.fields(String($0)) }
            XCTAssertEqual(lines.first, ["id", "name", "type", "data_updated_at", "columns", "rows", "domain", "page"])
            XCTAssertEqual(lines.count, 2, "\(platform): one result: \(run.stdout)")
            let page = try XCTUnwrap(lines.last?.last)
            try succeed(["fetch", page, "--table", table + "_" + platform], db: db)
            XCTAssertEqual(try csv("select count(*) from \(table)_\(platform)", db: db).last, "12", platform)
        }
        let words = portal.server.requests.first { $0.route == "/api/3/action/package_search" }?.query["q"]
        XCTAssertEqual(words, "parks")
        XCTAssertEqual(portal.server.requests.first { $0.route == "/api/explore/v2.1/catalog/datasets" }?.query["where"], "\"parks\"")
        let none = try SocloadProcess.run(["search", "parks", "--platform", "ckan"])
        XCTAssertEqual(none.status, 64, none.stderr)
        XCTAssertTrue(none.stderr.contains("give its --domain"), none.stderr)
    }

    func testPostGISGetsEachPlatformsPointsAsGeometries() throws {
        let portal = try FakePlatformPortal(rows: 40)
        let database = try TestPostgreSQL.makeDatabase()
        _ = try database.connect().execute("CREATE EXTENSION postgis")
        try succeed(["fetch", portal.arcgisURL], db: database.url)
        try succeed(["fetch", portal.odsURL, "--table", "parks_ods"], db: database.url)
        XCTAssertEqual(try csv("select f_table_name, f_geometry_column, type, srid from geometry_columns order by 1", db: database.url),
                       ["f_table_name,f_geometry_column,type,srid", "parks_0,geometry_geom,POINT,4326", "parks_ods,location_geom,POINT,4326"])
        let row = FakePlatformPortal.row(17)
        XCTAssertEqual(try csv("select ST_X(geometry_geom), ST_Y(geometry_geom) from parks_0 where \"OBJECTID\" = 17", db: database.url).last,
                       "\(row.longitude),\(row.latitude)")
        XCTAssertEqual(try csv("select ST_X(location_geom), ST_Y(location_geom) from parks_ods where id = 17", db: database.url).last,
                       "\(row.longitude),\(row.latitude)")
    }

    /// A project of URL entries: refreshed, then named by the tables they made, two portals on
    /// one host kept apart by their ports, and a page larger than asked said as such.
    func testAProjectNamesItsURLEntriesByTheirTablesAndPortsKeepPortalsApart() throws {
        let portal = try FakePlatformPortal(rows: 30, pageCap: 10)
        let folder = URL(fileURLWithPath: directory.path("project"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            {"database": "p.sqlite", "datasets": [{"name": "ckan", "url": "\(portal.ckanURL)"},
                                                  {"url": "\(portal.arcgisURL)"}]}
            """.utf8).write(to: folder.appendingPathComponent("socload.json"))
        let first = try SocloadProcess.run(["refresh"], directory: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        portal.update { $0[0].name = "Renamed" }
        let byTable = try SocloadProcess.run(["refresh", "parks_0", "--json"], directory: folder)
        XCTAssertEqual(byTable.status, 0, byTable.stderr)
        XCTAssertTrue(byTable.stdout.contains("\"table\":\"parks_0\""), byTable.stdout)
        XCTAssertFalse(byTable.stdout.contains("\"table\":\"parks\""), "only the entry named by its table: \(byTable.stdout)")
        let status = try SocloadProcess.run(["status", "parks", "--format", "csv"], directory: folder)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("ckan,parks,changed"), status.stdout)

        // The same dataset id on another port of the same host is another portal's.
        let other = try FakePlatformPortal(rows: 3)
        let db = directory.path("ports.sqlite")
        try succeed(["fetch", portal.odsURL], db: db)
        let elsewhere = try fetch(other.odsURL, db: db)
        XCTAssertEqual(elsewhere.status, 64, elsewhere.stderr)
        XCTAssertTrue(elsewhere.stderr.contains("it holds another dataset"), elsewhere.stderr)

        // A server that sends more rows than a page asks.
        portal.fault = .ignoresPageSize
        let big = try fetch(portal.ckanURL, db: db, ["--table", "big", "--page-size", "5"])
        XCTAssertEqual(big.status, 69, big.stderr)
        XCTAssertTrue(big.stderr.contains("CKAN's page 1 holds 10 rows where 5 were asked: the server ignores paging"), big.stderr)
    }
}
