import SocloadSocrata
import XCTest

final class DatasetReferenceTests: XCTestCase {
    private func resolve(_ text: String, domain: String? = nil, files: Set<String> = []) throws -> DatasetReference {
        try DatasetReference.resolve(text, domain: domain, datasetsDirectories: ["Datasets", "/opt/share"],
                                     fileExists: { files.contains($0) })
    }

    func testPortalURLsInEveryForm() throws {
        let expected = "https://data.cityofchicago.org/api/views/abcd-1234/rows.json?accessType=DOWNLOAD"
        for url in [
            "https://data.cityofchicago.org/Public-Safety/Crimes-2001-to-Present/abcd-1234",
            "https://data.cityofchicago.org/dataset/Crimes/abcd-1234/about_data",
            "https://data.cityofchicago.org/d/abcd-1234",
            "https://data.cityofchicago.org/resource/abcd-1234.json",
            "https://data.cityofchicago.org/resource/abcd-1234.json?$limit=5",
            "https://data.cityofchicago.org/api/views/abcd-1234",
            "https://data.cityofchicago.org/api/views/abcd-1234.json",
        ] {
            let reference = try resolve(url)
            XCTAssertEqual(reference.location, .url(expected), url)
            XCTAssertEqual(reference.datasetID, "abcd-1234", url)
            XCTAssertEqual(reference.domain, "data.cityofchicago.org", url)
        }
    }

    func testRowsJSONURLIsUsedAsGiven() throws {
        let url = "http://127.0.0.1:8080/api/views/abcd-1234/rows.json?accessType=DOWNLOAD&x=1"
        let reference = try resolve(url)
        XCTAssertEqual(reference.location, .url(url))
        XCTAssertEqual(reference.domain, "127.0.0.1:8080")
        XCTAssertEqual(try resolve("https://example.org/exports/rows.json").location, .url("https://example.org/exports/rows.json"))
        XCTAssertEqual(try resolve("http://127.0.0.1:9/bench-300.rows.json").location, .url("http://127.0.0.1:9/bench-300.rows.json"))
        XCTAssertEqual(try resolve("http://127.0.0.1:9/abcd-1234.rows.json").datasetID, "abcd-1234")
    }

    func testURLWithoutAnIDIsAUsageError() {
        XCTAssertThrowsError(try resolve("https://data.example.org/browse?q=crime")) { error in
            XCTAssertEqual(error as? DatasetReferenceError, .noDatasetIDInURL("https://data.example.org/browse?q=crime"))
            XCTAssertEqual((error as? DatasetReferenceError)?.kind, .usage)
        }
    }

    func testBareIDsWithDomainBundledCopyOrNeither() throws {
        XCTAssertEqual(try resolve("n5m4-mism", domain: "data.example.org").location,
                       .url("https://data.example.org/api/views/n5m4-mism/rows.json?accessType=DOWNLOAD"))
        XCTAssertEqual(try resolve("n5m4-mism", domain: "http://127.0.0.1:9999/").location,
                       .url("http://127.0.0.1:9999/api/views/n5m4-mism/rows.json?accessType=DOWNLOAD"))
        let bundled = try resolve("n5m4-mism", files: ["/opt/share/n5m4-mism.json"])
        XCTAssertEqual(bundled.location, .file("/opt/share/n5m4-mism.json"))
        XCTAssertTrue(bundled.isBundledCopy)
        XCTAssertThrowsError(try resolve("n5m4-mism")) { error in
            XCTAssertEqual("\(error)", "no portal for dataset 'n5m4-mism' and no bundled copy: pass --domain HOST (or set SOCLOAD_DOMAIN)")
        }
        XCTAssertThrowsError(try resolve("n5m4-mism", domain: "ftp://x")) { error in
            XCTAssertEqual(error as? DatasetReferenceError, .invalidDomain("ftp://x"))
        }
    }

    func testFilesComeFirst() throws {
        let reference = try resolve("./exports/abcd-1234.rows.json", files: ["./exports/abcd-1234.rows.json"])
        XCTAssertEqual(reference.location, .file("./exports/abcd-1234.rows.json"))
        XCTAssertEqual(reference.datasetID, "abcd-1234")
        XCTAssertEqual(try resolve("rows.json", files: ["rows.json"]).datasetID, nil)
        XCTAssertThrowsError(try resolve("nothing-here.json")) { error in
            XCTAssertEqual((error as? DatasetReferenceError)?.kind, .missingInput)
        }
    }

    func testIDsAndCredentialsInDisplay() throws {
        XCTAssertTrue(DatasetReference.isDatasetID("n5m4-mism"))
        for text in ["N5M4-MISM", "n5m4mism", "n5m4-mis", "n5m4-misms", "n5m4_mism"] {
            XCTAssertFalse(DatasetReference.isDatasetID(text), text)
        }
        let reference = try resolve("https://user:secret@data.example.org/api/views/abcd-1234/rows.json")
        XCTAssertFalse(reference.displaySource.contains("secret"))
    }
}
