import Foundation
import SocloadTestSupport
import XCTest

/// Every type each platform documents, one column each, through a loopback server answering as
/// the platform does: the logical type the table gets and the values stored, on SQLite and
/// PostgreSQL (two rows: one of values, one of NULLs), and a value not of its type counted.
final class PlatformTypesTests: DocumentTestCase {
    private static func body(_ object: Any) -> LoopbackHTTPServer.Response {
        .init(body: Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()))
    }

    /// The table's rows as CSV lines, in key order, every column.
    private func rows(_ table: String, order: String, db: String, columns: String = "*") throws -> [String] {
        Array(try csv("select \(columns) from \(table) order by \(order)", db: db).dropFirst())
    }

    /// A JSON column's value of one row, parsed (databases write JSON each their own way).
    private func json(_ column: String, of table: String, where condition: String, db: String) throws -> NSObject? {
        let run = try succeed(["query", "select \(column) from \(table) where \(condition)", "--format", "json"], db: db)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        guard let text = rows.first?.values.first as? String else { return rows.first?.values.first as? NSObject }
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject
    }

    func testEveryCKANType() throws {
        let typeNames = ["int2", "int4", "int8", "float4", "float8", "numeric", "bool", "date", "time", "timestamp", "timestamptz", "json",
                     "_text", "text"]
        let fields = [["id": "_id", "type": "int"]] + typeNames.map { ["id": "c_" + $0, "type": $0] }
        let values: [String: Any] = ["_id": 1, "c_int2": 7, "c_int4": -2147483648, "c_int8": 9007199254740993, "c_float4": 1.5,
                                     "c_float8": 0.1, "c_numeric": NSDecimalNumber(string: "12345.678"), "c_bool": false,
                                     "c_date": "2024-02-29", "c_time": "23:59:59", "c_timestamp": "2024-02-29T12:00:00",
                                     "c_timestamptz": "2024-02-29T12:00:00+02:00", "c_json": ["a": [1, 2]], "c__text": ["x", "y"],
                                     "c_text": "Zoë \"quoted\"; 中文"]
        var nulls = Dictionary(uniqueKeysWithValues: typeNames.map { ("c_" + $0, NSNull() as Any) })
        nulls["_id"] = 2
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let package = Self.body(["success": true, "result": ["name": "types", "metadata_modified": "2026-01-01T00:00:00",
            "resources": [["id": "r1", "datastore_active": true, "name": "Types"]]]])
        let schema = Self.body(["success": true, "result": ["fields": fields, "records": [Any](), "total": 2]])
        let page = Self.body(["success": true, "result": ["fields": fields, "records": [values, nulls], "total": 2]])
        server.handle { request in
            switch request.route {
            case "/api/3/action/package_show": return package
            case "/api/3/action/datastore_search": return request.query["limit"] == "0" ? schema : page
            default: return nil
            }
        }
        for (db, postgreSQL) in try databases() {
            _ = postgreSQL
            try succeed(["fetch", server.baseURL + "/dataset/types/resource/r1"], db: db)
            XCTAssertEqual(try types("types", db: db), ["_id=integer", "c_int2=integer", "c_int4=integer", "c_int8=integer",
                "c_float4=double", "c_float8=double", "c_numeric=decimal", "c_bool=boolean", "c_date=date", "c_time=text",
                "c_timestamp=floating_timestamp", "c_timestamptz=timestamp", "c_json=json", "c__text=json", "c_text=text"])
            let scalars = "_id, c_int2, c_int4, c_int8, c_float4, c_float8, c_numeric, c_bool, c_date, c_time, c_timestamp, c_timestamptz, c_text"
            XCTAssertEqual(try rows("types", order: "_id", db: db, columns: scalars), [
                #"1,7,-2147483648,9007199254740993,1.5,0.1,12345.678,0,2024-02-29,23:59:59,2024-02-29T12:00:00,"#
                    + #"2024-02-29T10:00:00Z,"Zoë ""quoted""; 中文""#,
                "2,,,,,,,,,,,,"], db)
            XCTAssertEqual(try json("c_json", of: "types", where: "_id = 1", db: db), ["a": [1, 2]] as NSDictionary, db)
            XCTAssertEqual(try json("c__text", of: "types", where: "_id = 1", db: db), ["x", "y"] as NSArray, db)
            XCTAssertEqual(try csv("select count(c_json), count(c__text) from types where _id = 2", db: db).last, "0,0")
        }
    }

    func testEveryArcGISType() throws {
        let typeNames = ["esriFieldTypeSmallInteger", "esriFieldTypeInteger", "esriFieldTypeBigInteger", "esriFieldTypeSingle",
                     "esriFieldTypeDouble", "esriFieldTypeString", "esriFieldTypeDate", "esriFieldTypeDateOnly", "esriFieldTypeTimeOnly",
                     "esriFieldTypeTimestampOffset", "esriFieldTypeGUID", "esriFieldTypeGlobalID", "esriFieldTypeXML"]
        let name = { (type: String) in "F_" + type.dropFirst("esriFieldType".count).uppercased() }
        let fields = [["name": "OBJECTID", "type": "esriFieldTypeOID"]] + typeNames.map { ["name": name($0), "type": $0] }
            + [["name": "Shape", "type": "esriFieldTypeGeometry"]]
        let values: [String: Any] = ["OBJECTID": 1, "F_SMALLINTEGER": -7, "F_INTEGER": 2147483647, "F_BIGINTEGER": 9007199254740993,
                                     "F_SINGLE": 1.5, "F_DOUBLE": -0.25, "F_STRING": "00501", "F_DATE": 1428404675000,
                                     "F_DATEONLY": "2024-02-29", "F_TIMEONLY": "08:30:00", "F_TIMESTAMPOFFSET": "2024-02-29T12:00:00.000+02:00",
                                     "F_GUID": "{478A59A5-65DB-47A0-84F2-685C611B2BB0}", "F_GLOBALID": "{8E69C614-B8A7-4632-83F8-E96E12FE937E}",
                                     "F_XML": "<a/>"]
        var nulls = Dictionary(uniqueKeysWithValues: typeNames.map { (name($0), NSNull() as Any) })
        nulls["OBJECTID"] = 2
        // An old server's date as text: ISO is read, anything else counted as not a timestamp.
        var old = nulls
        old["OBJECTID"] = 3
        old["F_DATE"] = "2015-04-07T11:04:35"
        var bad = nulls
        bad["OBJECTID"] = 4
        bad["F_DATE"] = "last Tuesday"
        let polygon: [String: Any] = ["rings": [[[0, 0], [0, 10], [10, 10], [10, 0], [0, 0]], [[2, 2], [8, 2], [8, 8], [2, 8], [2, 2]]]]
        let features: [[String: Any]] = [["attributes": values, "geometry": polygon], ["attributes": nulls],
                                         ["attributes": old, "geometry": NSNull()], ["attributes": bad]]
        let layer = Self.body(["currentVersion": 11.1, "name": "Types", "objectIdField": "OBJECTID", "geometryType": "esriGeometryPolygon",
                               "maxRecordCount": 10, "advancedQueryCapabilities": ["supportsPagination": true, "supportsOrderBy": true],
                               "fields": fields])
        let page = Self.body(["features": features, "spatialReference": ["wkid": 4326]])
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let path = "/arcgis/rest/services/Types/FeatureServer/3"
        server.handle { request in
            switch request.route {
            case path: return layer
            case path + "/query":
                if request.query["returnCountOnly"] == "true" { return Self.body(["count": 4]) }
                return request.query["where"] == "1=1" ? page : Self.body(["features": [Any]()])
            default: return nil
            }
        }
        for (db, postgreSQL) in try databases() {
            _ = postgreSQL
            let run = try succeed(["fetch", server.baseURL + path], db: db)
            XCTAssertTrue(run.stderr.contains("F_DATE") && run.stderr.contains("last Tuesday"), run.stderr)
            XCTAssertEqual(try types("types_3", db: db), ["OBJECTID=integer", "F_SMALLINTEGER=integer", "F_INTEGER=integer",
                "F_BIGINTEGER=integer", "F_SINGLE=double", "F_DOUBLE=double", "F_STRING=text", "F_DATE=timestamp", "F_DATEONLY=date",
                "F_TIMEONLY=text", "F_TIMESTAMPOFFSET=timestamp", "F_GUID=text", "F_GLOBALID=text", "F_XML=text", "geometry=geometry"])
            XCTAssertEqual(try rows("types_3", order: "\"OBJECTID\"", db: db), [
                "1,-7,2147483647,9007199254740993,1.5,-0.25,00501,2015-04-07T11:04:35Z,2024-02-29,08:30:00,2024-02-29T10:00:00Z,"
                    + "{478A59A5-65DB-47A0-84F2-685C611B2BB0},{8E69C614-B8A7-4632-83F8-E96E12FE937E},<a/>,"
                    + "\"MULTIPOLYGON (((0 0, 0 10, 10 10, 10 0, 0 0), (2 2, 8 2, 8 8, 2 8, 2 2)))\"",
                "2,,,,,,,,,,,,,,", "3,,,,,,,2015-04-07T11:04:35Z,,,,,,,", "4,,,,,,,,,,,,,,"], db)
        }
    }

    func testEveryOpenDataSoftType() throws {
        let typeNames = ["text", "int", "double", "decimal", "boolean", "date", "datetime", "geo_point_2d", "geo_shape", "json", "file"]
        let fields = typeNames.map { ["name": "f_" + $0, "type": $0] } + [["name": "f_multi", "type": "text", "annotations": ["multivalued": [";"]]]]
        let values: [String: Any] = ["f_text": "Été", "f_int": 42, "f_double": 2.5, "f_decimal": NSDecimalNumber(string: "0.10"),
                                     "f_boolean": true, "f_date": "2024-02-29", "f_datetime": "2024-02-29T12:00:00+00:00",
                                     "f_geo_point_2d": ["lon": 2.35, "lat": 48.85],
                                     "f_geo_shape": ["type": "Feature", "geometry": ["type": "LineString", "coordinates": [[2.3, 48.8], [2.4, 48.9]]],
                                                     "properties": [String: Any]()],
                                     "f_json": ["k": "v"], "f_file": ["id": "abc", "filename": "a.pdf"], "f_multi": ["a", "b"]]
        let nulls = Dictionary(uniqueKeysWithValues: (typeNames.map { "f_" + $0 } + ["f_multi"]).map { ($0, NSNull() as Any) })
        // A v1 export's point is [lat, lon]: read as such, and said.
        var old = nulls
        old["f_text"] = "v1"
        old["f_geo_point_2d"] = [48.85, 2.35]
        let lines = [values, nulls, old].flatMap { Array((try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys])) ?? Data()) + [0x0A] }
        let description = Self.body(["dataset_id": "types", "fields": fields,
                                     "metas": ["default": ["records_count": 3, "data_processed": "2026-01-01T00:00:00+00:00"]]])
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.handle { request in
            switch request.route {
            case "/api/explore/v2.1/catalog/datasets/types": return description
            case "/api/explore/v2.1/catalog/datasets/types/exports/jsonl": return .init(body: lines)
            default: return nil
            }
        }
        for (db, postgreSQL) in try databases() {
            _ = postgreSQL
            let run = try succeed(["fetch", server.baseURL + "/explore/dataset/types/"], db: db)
            XCTAssertTrue(run.stderr.contains("1 geo_point_2d value was [latitude, longitude] (the v1 order), read as such"), run.stderr)
            XCTAssertEqual(try types("types", db: db), ["f_text=text", "f_int=integer", "f_double=double", "f_decimal=decimal",
                "f_boolean=boolean", "f_date=date", "f_datetime=timestamp", "f_geo_point_2d=geometry", "f_geo_shape=geometry",
                "f_json=json", "f_file=json", "f_multi=json"])
            let scalars = "f_text, f_int, f_double, f_decimal, f_boolean, f_date, f_datetime, f_geo_point_2d, f_geo_shape"
            XCTAssertEqual(try rows("types", order: "f_text", db: db, columns: scalars).sorted(), [
                ",,,,,,,,", "v1,,,,,,,POINT (2.35 48.85),",
                // JSONSerialization wrote the decimal 0.10 as 0.1.
                #"Été,42,2.5,0.1,1,2024-02-29,2024-02-29T12:00:00Z,POINT (2.35 48.85),"LINESTRING (2.3 48.8, 2.4 48.9)""#].sorted(), db)
            XCTAssertEqual(try json("f_json", of: "types", where: "f_int = 42", db: db), ["k": "v"] as NSDictionary, db)
            XCTAssertEqual(try json("f_file", of: "types", where: "f_int = 42", db: db), ["id": "abc", "filename": "a.pdf"] as NSDictionary, db)
            XCTAssertEqual(try json("f_multi", of: "types", where: "f_int = 42", db: db), ["a", "b"] as NSArray, db)
        }
    }
}
