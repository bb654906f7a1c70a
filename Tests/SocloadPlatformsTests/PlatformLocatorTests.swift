import SocloadCore
@testable import SocloadPlatforms
import XCTest

/// The URL forms each platform's datasets take, as users copy them from a browser or an API.
final class PlatformLocatorTests: XCTestCase {
    private func locate(_ url: String, _ platform: DataPlatform? = nil) throws -> PlatformLocator? {
        try PlatformLocator(url: url, platform: platform)
    }

    func testCKANPagesAndActionURLs() throws {
        XCTAssertEqual(try locate("https://demo.ckan.org/dataset/frictionless/resource/66cac6ef-c56d"),
                       .ckan(CKANLocator(base: "https://demo.ckan.org", package: "frictionless", resource: "66cac6ef-c56d")))
        XCTAssertEqual(try locate("https://dados.gov.br/dados/dataset/abc/resource/r1/download/x.csv"),
                       .ckan(CKANLocator(base: "https://dados.gov.br/dados", package: "abc", resource: "r1")))
        XCTAssertEqual(try locate("https://catalog.data.gov/dataset/electric-vehicles"),
                       .ckan(CKANLocator(base: "https://catalog.data.gov", package: "electric-vehicles", resource: nil)))
        XCTAssertEqual(try locate("https://d4c.example.fr/data4citizen/api/action/datastore_search?q=x&resource_id=R9"),
                       .ckan(CKANLocator(base: "https://d4c.example.fr/data4citizen", package: nil, resource: "R9", actions: "/api/action/")))
        XCTAssertEqual(try locate("https://demo.ckan.org/api/3/action/package_show?id=frictionless"),
                       .ckan(CKANLocator(base: "https://demo.ckan.org", package: "frictionless", resource: nil)))
        XCTAssertEqual(try locate("http://127.0.0.1:8080/datastore/dump/R2?format=json"),
                       .ckan(CKANLocator(base: "http://127.0.0.1:8080", package: nil, resource: "R2")))
    }

    func testAnIncompleteURLIsSaidAsItsPlatformsForms() throws {
        for (url, platform) in [("https://gis.example.gov/arcgis/rest/services/Parks/FeatureServer", "ArcGIS"),
                                ("https://data.example.fr/explore/dataset/", "OpenDataSoft"),
                                ("https://demo.ckan.org/api/3/action/datastore_search", "CKAN"),
                                ("https://demo.ckan.org/dataset/frictionless/abcd-12345", nil)] {
            do {
                let found = try locate(url)
                XCTAssertNil(platform, "\(url): \(String(describing: found))")
                XCTAssertNil(found, url)
            } catch {
                XCTAssertTrue("\(error)".contains("is no \(platform ?? "?") dataset URL"), "\(url): \(error)")
            }
        }
        // CKAN names a resource `/resource/ID`: another third part is no CKAN URL.
        XCTAssertThrowsError(try locate("https://demo.ckan.org/dataset/frictionless/abcd-1234", .ckan))
    }

    func testSocrataPagesStaySocratasUnlessThePlatformIsGiven() throws {
        // Socrata's `/dataset/NAME/ID` pages end in a 4x4 id.
        XCTAssertNil(try locate("https://data.cityofchicago.org/dataset/Crimes-2001-to-Present/ijzp-q8t2"))
        XCTAssertNil(try locate("https://data.example.org/resource/n5m4-mism.json"))
        XCTAssertNil(try locate("n5m4-mism"))
        XCTAssertEqual(try locate("https://ckan.example.org/dataset/abcd-1234", .ckan)?.platform, .ckan)
        XCTAssertNil(try locate("https://ckan.example.org/dataset/abcd-1234", .socrata))
        XCTAssertThrowsError(try locate("https://example.org/some/page", .ods)) { error in
            XCTAssertEqual((error as? PlatformError)?.kind, .usage)
            XCTAssertTrue("\(error)".contains("no OpenDataSoft dataset URL"), "\(error)")
        }
        XCTAssertThrowsError(try locate("rows.json", .arcgis))
    }

    func testArcGISLayersAndTheirQueries() throws {
        XCTAssertEqual(try locate("https://services.arcgis.com/P3eP/arcgis/rest/services/USA_ZIP_Code_Points_analysis/FeatureServer/0"),
                       .arcgis(layer: "https://services.arcgis.com/P3eP/arcgis/rest/services/USA_ZIP_Code_Points_analysis/FeatureServer/0",
                               service: "USA_ZIP_Code_Points_analysis", number: 0))
        XCTAssertEqual(try locate("https://gis.example.gov/arcgis/rest/services/Public/Parcels/MapServer/12/query?where=1%3D1&f=geojson"),
                       .arcgis(layer: "https://gis.example.gov/arcgis/rest/services/Public/Parcels/MapServer/12", service: "Parcels", number: 12))
        // A service without a layer number is not a layer.
        XCTAssertThrowsError(try locate("https://gis.example.gov/arcgis/rest/services/Public/Parcels/MapServer"))
        XCTAssertEqual(PlatformDescription.tableName("USA_ZIP_Code_Points_analysis", "0"), "usa_zip_code_points_analysis_0")
        XCTAssertEqual(PlatformDescription.tableName("2020 Parcels (draft)", "3"), "t_2020_parcels_draft_3")
        XCTAssertEqual(PlatformDescription.tableName("Équipements-publics"), "equipements_publics")
    }

    func testOpenDataSoftExploreAndAPIURLs() throws {
        XCTAssertEqual(try locate("https://opendata.paris.fr/explore/dataset/velib-emplacement-des-stations/table/?disjunctive.name"),
                       .ods(base: "https://opendata.paris.fr", datasetID: "velib-emplacement-des-stations"))
        XCTAssertEqual(try locate("https://data.example.fr/api/explore/v2.1/catalog/datasets/arbres/exports/jsonl"),
                       .ods(base: "https://data.example.fr", datasetID: "arbres"))
        XCTAssertEqual(try locate("https://data.example.fr/api/records/1.0/search/?dataset=arbres&rows=10"),
                       .ods(base: "https://data.example.fr", datasetID: "arbres"))
    }

    func testPlatformTypeNames() {
        XCTAssertEqual(["int4", "int8", "float8", "numeric", "bool", "date", "time", "timestamp", "timestamptz", "json", "_text", "text"]
            .map(CKANDataStore.logicalType),
                       [.integer, .integer, .double, .decimal, .boolean, .date, .text, .floatingTimestamp, .timestamp, .json, .json, .text])
        XCTAssertEqual(["esriFieldTypeOID", "esriFieldTypeSmallInteger", "esriFieldTypeBigInteger", "esriFieldTypeSingle",
                        "esriFieldTypeDate", "esriFieldTypeDateOnly", "esriFieldTypeGUID", "esriFieldTypeGlobalID"].map(ArcGISLayer.logicalType),
                       [.integer, .integer, .integer, .double, .timestamp, .date, .text, .text])
        XCTAssertEqual(["text", "int", "double", "date", "datetime", "geo_point_2d", "geo_shape", "file"].map(ODSDataset.logicalType),
                       [.text, .integer, .double, .date, .timestamp, .geometry, .geometry, .json])
        XCTAssertEqual(ArcGISLayer.description(.string("{\"value\":\"The five digit ZIP Code.\",\"fieldValueType\":\"uniqueIdentifier\"}")),
                       "The five digit ZIP Code.")
    }
}
