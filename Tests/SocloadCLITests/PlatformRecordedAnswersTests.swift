import Foundation
import SocloadTestSupport
import XCTest

/// `socload fetch` of real recorded CKAN, ArcGIS and OpenDataSoft answers
/// (../shared/datasets/platforms, see its SOURCES.md), served by a loopback server as each
/// platform would answer the requests socload makes. Skipped when the folder is absent.
final class PlatformRecordedAnswersTests: DocumentTestCase {
    private func recorded(_ name: String) throws -> [UInt8] {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is not beside the project") }
        let url = shared.appendingPathComponent("platforms/" + name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("platforms/\(name) is not in ../shared/datasets") }
        return Array(try Data(contentsOf: url))
    }

    private func json(_ bytes: [UInt8]) throws -> Any { try JSONSerialization.jsonObject(with: Data(bytes)) }

    private static func body(_ object: Any) -> LoopbackHTTPServer.Response {
        .init(body: Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
    }

    func testTheCKANTypesResourceIsTypedAsItsDataStoreFieldsSay() throws {
        let package = try recorded("ckan/demo.ckan.org__frictionless__package_show.2020-12-12.json")
        let schema = try recorded("ckan/demo.ckan.org__types__datastore_search.limit0.json")
        let page = try recorded("ckan/demo.ckan.org__types__datastore_search.page1.json")
        let end = try recorded("ckan/demo.ckan.org__types__datastore_search.offset100-empty.json")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.handle { request in
            switch request.route {
            case "/api/3/action/package_show": return .init(body: package)
            case "/api/3/action/datastore_search":
                if request.query["limit"] == "0" { return .init(body: schema) }
                return .init(body: (Int(request.query["offset"] ?? "0") ?? 0) == 0 ? page : end)
            default: return nil
            }
        }
        let url = server.baseURL + "/dataset/frictionless/resource/66cac6ef-c56d-41ae-b245-c381f50d15e9"
        for (db, postgreSQL) in try databases() {
            _ = postgreSQL
            try succeed(["fetch", url], db: db)
            // The types resource is the package's third: the table is named by its place.
            XCTAssertEqual(try types("frictionless_3", db: db), [
                "_id=integer", "any=text", "array=json", "boolean=boolean", "date=text", "date_year=text", "datetime=floating_timestamp",
                "duration=text", "geojson=json", "geopoint=text", "integer=integer", "number=double", "object=json", "string=text",
                "time=text", "year=integer", "yearmonth=text"])
            let row = try csv("select _id, \"any\", boolean, datetime, number, time, year from frictionless_3", db: db)
            XCTAssertEqual(row.last, "1,中国人,1,2015-01-01T03:00:00,7.0,03:00:00,2015")
            let verify = try socload(["verify", "frictionless_3"], db: db)
            XCTAssertEqual(verify.status, 0, verify.stderr)
            XCTAssertTrue(verify.stdout.contains("_id,_id,non_null,1,1,yes"), verify.stdout)
            let info = try succeed(["info", "frictionless_3", "--format", "csv"], db: db).stdout
            XCTAssertTrue(info.contains("2020-12-12T12:03:26.089976Z"), "the package's metadata_modified is the refresh signal: \(info)")
        }
        // One page and done: the total (1) was reached; `_links.next` (offset=100) is never followed.
        let pages = server.requests.filter { $0.route.hasSuffix("datastore_search") && $0.query["limit"] != "0" }
        XCTAssertEqual(pages.count, 2, "one page per database")
        XCTAssertTrue(pages.allSatisfy { $0.query["offset"] == "0" }, "\(pages.map(\.path))")
    }

    func testTheFacilitiesLayerKeepsDatesCodedValuesAndFeaturesWithoutGeometry() throws {
        let metadata = try recorded("arcgis/facilities-editable.layer-metadata.ags10.3.json")
        let page = try recorded("arcgis/facilities-editable.query.f-json.page1000.json")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let layer = "/arcgis/rest/services/Facilities/FeatureServer/0"
        server.handle { request in
            switch request.route {
            case layer: return .init(body: metadata)
            case layer + "/query":
                if request.query["returnCountOnly"] == "true" { return Self.body(["count": 1000]) }
                // The page holds 1000 features and says nothing held back: one page.
                return request.query["where"] == "1=1" ? .init(body: page) : Self.body(["features": [Any]()])
            default: return nil
            }
        }
        let db = directory.path("facilities.sqlite")
        try succeed(["fetch", server.baseURL + layer], db: db)
        XCTAssertEqual(try types("facilities_0", db: db), ["objectid=integer", "facility=integer", "description=text", "quality=integer",
                                                           "observed=timestamp", "globalid=text", "geometry=geometry"])
        XCTAssertEqual(try csv("select count(*), count(geometry), count(observed), count(description) from facilities_0", db: db).last,
                       "1000,838,120,224")
        XCTAssertEqual(try csv("select observed, globalid from facilities_0 where objectid = 306120", db: db).last,
                       "2015-04-07T11:04:35Z,{478A59A5-65DB-47A0-84F2-685C611B2BB0}")
        let dictionary = try succeed(["info", "facilities_0", "--dictionary", "--format", "csv"], db: db).stdout
        XCTAssertTrue(dictionary.contains("1 = Restrooms; 2 = Camping"), dictionary)
        XCTAssertTrue(dictionary.contains("0 = Excellent; 1 = Good"), dictionary)
        // No `editingInfo`: nothing says the layer is unchanged, so a refresh reloads it.
        let again = try succeed(["fetch", server.baseURL + layer], db: db)
        XCTAssertTrue(again.stderr.contains("Refreshed facilities_0: 0 added, 0 changed, 0 removed, 1,000 unchanged"), again.stderr)
        // A GeoPackage gets the points as its geometry.
        let gpkg = directory.path("facilities.gpkg")
        try succeed(["fetch", server.baseURL + layer, "--geopackage"], db: gpkg)
        XCTAssertEqual(try csv("select count(*) from gpkg_geometry_columns where table_name = 'facilities_0' and geometry_type_name = 'POINT'",
                               db: gpkg).last, "1")
    }

    func testAnArcGISServerBefore10Point3IsPagedByItsIDsAndItsOwnCountIsSaid() throws {
        let metadata = try recorded("arcgis/carson-addresses.layer-metadata.ags10.0-no-paging.json")
        let count = try recorded("arcgis/carson-addresses.query.returnCountOnly.json")
        let ids = try recorded("arcgis/carson-addresses.query.returnIdsOnly.json")
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let layer = "/arcgis/rest/services/Carson/MapServer/1"
        server.handle { request in
            switch request.route {
            case layer: return .init(body: metadata)
            case layer + "/query":
                if request.query["returnCountOnly"] == "true" { return .init(body: count) }
                if request.query["returnIdsOnly"] == "true" { return .init(body: ids) }
                guard let asked = request.query["objectIds"] else { return Self.body(["error": ["code": 400, "message": "Unable to complete operation."]]) }
                // The features of the ids asked (the recording has none of their attributes).
                let features = asked.split(separator: ",").map { id in
                    ["attributes": ["OBJECTID": Int(id) ?? 0, "ADDRESS": "\(id) MAIN ST", "Edit_Date": 1_136_073_600_000],
                     "geometry": ["x": -118.28, "y": 33.83]] as [String: Any]
                }
                return Self.body(["features": features])
            default: return nil
            }
        }
        let listed = try XCTUnwrap((try json(ids) as? [String: Any])?["objectIds"] as? [Int])
        let db = directory.path("carson.sqlite")
        let run = try succeed(["fetch", server.baseURL + layer], db: db)
        XCTAssertEqual(try csv("select count(*), count(distinct OBJECTID) from carson_1", db: db).last, "\(listed.count),\(listed.count)")
        XCTAssertEqual(try csv("select Edit_Date from carson_1 limit 1", db: db).last, "2006-01-01T00:00:00Z")
        XCTAssertFalse(server.requests.contains { $0.query["resultOffset"] != nil || $0.query["orderByFields"] != nil },
                       "a 10.0 server cannot order or offset")
        // Its count (30,551) is not the ids it listed: said at once, and verify fails on it.
        XCTAssertTrue(run.stderr.contains("\(listed.count) rows were loaded, and ArcGIS counts 30551"), run.stderr)
        let verify = try socload(["verify", "carson_1"], db: db)
        XCTAssertEqual(verify.status, 65, verify.stderr)
        XCTAssertTrue(verify.stdout.contains("OBJECTID,OBJECTID,non_null,30551,\(listed.count),NO"), verify.stdout)
    }

    func testAQueryAnswerInWebMercatorIsRefusedNotStoredAsDegrees() throws {
        let page = try recorded("arcgis/usa-zip-code-points.query.f-json.exceeded.json")
        let answer = try XCTUnwrap(try json(page) as? [String: Any])
        let layerInfo = Self.body(["name": "USA ZIP Code Points", "geometryType": "esriGeometryPoint", "objectIdField": "OBJECTID",
                                   "maxRecordCount": 1, "advancedQueryCapabilities": ["supportsPagination": true, "supportsOrderBy": true],
                                   "fields": answer["fields"] ?? []])
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let layer = "/arcgis/rest/services/USA_ZIP_Code_Points_analysis/FeatureServer/0"
        server.handle { request in
            switch request.route {
            case layer: return layerInfo
            case layer + "/query":
                return request.query["returnCountOnly"] == "true" ? Self.body(["count": 2]) : .init(body: page)
            default: return nil
            }
        }
        let db = directory.path("zip.sqlite")
        let run = try socload(["fetch", server.baseURL + layer, "--dry-run"], db: db)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("ZIP_CODE"), run.stdout)
        let load = try socload(["fetch", server.baseURL + layer], db: db)
        XCTAssertEqual(load.status, 65, load.stderr)
        XCTAssertTrue(load.stderr.contains("geometries in EPSG:3857, not the EPSG:4326 asked"), load.stderr)
        XCTAssertEqual(load.stderr.split(whereSeparator: \.isNewline).count, 1, load.stderr)
    }

    func testTheVelibExportAndTheGeonamesExampleLoadWithTheirPointsTheRightWayRound() throws {
        // Read outside XCTUnwrap: a skip thrown inside its autoclosure would count as a failure.
        let velibBytes = try recorded("ods/velib-emplacement-des-stations.v2.1-export-json.2023.json")
        let openAPIBytes = try recorded("ods/explore-v2.0.openapi-with-real-examples.json")
        let velib = try XCTUnwrap(try json(velibBytes) as? [[String: Any]])
        let openAPI = try XCTUnwrap(try json(openAPIBytes) as? [String: Any])
        let examples = try XCTUnwrap((openAPI["components"] as? [String: Any])?["examples"] as? [String: Any])
        let geonames = try XCTUnwrap((examples["dataset"] as? [String: Any])?["value"])
        let records = try XCTUnwrap(((examples["records"] as? [String: Any])?["value"] as? [String: Any])?["records"] as? [[String: Any]])
        func lines(_ rows: [Any]) -> LoopbackHTTPServer.Response {
            .init(body: rows.flatMap { Array((try? JSONSerialization.data(withJSONObject: $0)) ?? Data()) + [0x0A] })
        }
        let velibLines = lines(velib)
        let geonamesDescription = Self.body(geonames)
        let geonamesLines = lines(records.compactMap { ($0["record"] as? [String: Any])?["fields"] })
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let api = "/api/explore/v2.1/catalog/datasets/"
        server.handle { request in
            switch request.route {
            case api + "velib-emplacement-des-stations":
                // No v2.1 description was recorded: this one states the export's own fields.
                return Self.body(["dataset_id": "velib-emplacement-des-stations", "fields": [
                    ["name": "stationcode", "type": "text"], ["name": "name", "type": "text"], ["name": "capacity", "type": "int"],
                    ["name": "coordonnees_geo", "type": "geo_point_2d"]], "metas": ["default": ["records_count": 1464]]])
            case api + "velib-emplacement-des-stations/exports/jsonl": return velibLines
            case api + "geonames-all-cities-with-a-population-1000": return geonamesDescription
            case api + "geonames-all-cities-with-a-population-1000/exports/jsonl": return geonamesLines
            default: return nil
            }
        }
        for (db, postgreSQL) in try databases() {
            _ = postgreSQL
            try succeed(["fetch", server.baseURL + "/explore/dataset/velib-emplacement-des-stations/"], db: db)
            XCTAssertEqual(try csv("select count(*), count(coordonnees_geo), min(capacity) from velib_emplacement_des_stations", db: db).last,
                           "1464,1464,0")
            let first = velib[0]
            let point = try XCTUnwrap(first["coordonnees_geo"] as? [String: Double])
            let stored = try csv("select coordonnees_geo from velib_emplacement_des_stations where stationcode = '\(first["stationcode"] ?? "")'",
                                 db: db).last ?? ""
            XCTAssertEqual(stored, "POINT (\(point["lon"]!) \(point["lat"]!))", "longitude first")
            // Two example records of the 137,611 the description counts: a whole export would be cut short.
            let whole = try socload(["fetch", server.baseURL + "/explore/dataset/geonames-all-cities-with-a-population-1000/", "--table",
                                     "geonames"], db: db)
            XCTAssertEqual(whole.status, 69, whole.stderr)
            XCTAssertTrue(whole.stderr.contains("the export ends after 2 of the 137611 records"), whole.stderr)
            try succeed(["fetch", server.baseURL + "/explore/dataset/geonames-all-cities-with-a-population-1000/", "--table", "geonames",
                         "--limit", "2"], db: db)
            XCTAssertEqual(try types("geonames", db: db).filter { ["alternate_names", "population", "modification_date", "coordinates"]
                .contains(String($0.split(separator: "=")[0])) },
                           ["alternate_names=json", "population=integer", "modification_date=date", "coordinates=geometry"])
            XCTAssertEqual(try csv("select population, modification_date from geonames where geoname_id = '2978771'", db: db).last,
                           "29278,2019-03-26")
            // A slice (--limit): verify says it cannot compare it.
            let verify = try socload(["verify", "geonames"], db: db)
            XCTAssertTrue(verify.stderr.contains("2 rows were loaded (--limit), the portal counts 137611"), verify.stderr)
        }
    }
}
