import Foundation
import SocloadKit
import XCTest

/// The library guide's examples of specs and projects, as written there.
extension ReadmeExamples {
    /// "Loading a dataset from Swift": a spec decoded from its entry form.
    func testASpecDecodedFromAnEntry() throws {
        let entry = #"{"id": "n5m4-mism", "index": ["agency"], "pk": "name", "on-schema-change": "fail"}"#
        let spec = try JSONDecoder().decode(LoadSpec.self, from: Data(entry.utf8))
        print(spec.indexes, spec.primaryKey ?? [])   // [["agency"]] ["name"]

        XCTAssertEqual(spec.indexes, [["agency"]])
        XCTAssertEqual(spec.primaryKey, ["name"])
        XCTAssertEqual(spec.onSchemaChange, .fail)
    }

    /// "Keeping a project fresh from Swift".
    func testKeepingAProjectFresh() throws {
        try #"{"database": "open.sqlite", "datasets": [{"id": "n5m4-mism", "table": "nominations"}, {"id": "ci7y-pmts"}]}"#
            .write(toFile: "socload.json", atomically: true, encoding: .utf8)
        var loaded: [String] = []
        let project = try Project.load("socload.json")
        for dataset in try project.refresh() {
            switch dataset.result {
            case .success(.loaded(let summary)): print(dataset.name, summary.isUpToDate ? "up to date" : "loaded")
                loaded.append(summary.tableName)
            case .success(let other): print(dataset.name, other)
            case .failure(let error): print(dataset.name, "failed:", error)
            }
        }
        XCTAssertEqual(loaded, ["nominations", "ci7y_pmts"])
        XCTAssertEqual(try SocloadLockFile.read("socload.lock").datasets["nominations"]?.rowCount, 300)
        let again = try project.refresh(names: ["nominations"])
        guard case .success(.loaded(let summary)) = again.first?.result else { return XCTFail("\(again)") }
        XCTAssertTrue(summary.isUpToDate)
    }
}
