import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// Lookups in the plan, asserted as data: the SPEC grammar, the stored columns, the names a
/// lookup gets, what is refused, and plans recorded before lookups existed.
final class LookupPlanTests: XCTestCase {
    private func plan(_ options: PlanOptions) throws -> LoadPlan {
        let json = #"{"id":"abcd-1234","columns":[{"fieldName":":sid","dataTypeName":"meta_data"},"#
            + #"{"fieldName":"name","dataTypeName":"text"},{"fieldName":"agency","dataTypeName":"text"},"#
            + #"{"fieldName":"city","dataTypeName":"text"},{"fieldName":"state","dataTypeName":"text"},"#
            + #"{"fieldName":"agency_id","dataTypeName":"number"},{"fieldName":"the_geom","dataTypeName":"point"}]}"#
        return try LoadPlan.socrata(view: ViewMetadata(description: Array(json.utf8), source: "test"), options: options)
    }

    func testSpecsReadAndWriteBack() throws {
        let cases: [(String, Extraction)] = [
            ("agency", Extraction(columns: ["agency"])),
            ("agency+count+distinct=name", Extraction(columns: ["agency"], count: true, countDistinct: ["name"])),
            ("city,state:places+count", Extraction(columns: ["city", "state"], table: "places", count: true)),
            ("a+prune+distinct=b+distinct=c", Extraction(columns: ["a"], countDistinct: ["b", "c"], prune: true)),
        ]
        for (spec, expected) in cases {
            let extraction = try Extraction(spec: spec)
            XCTAssertEqual(extraction, expected, spec)
            XCTAssertEqual(try Extraction(spec: extraction.spec), extraction, spec)
        }
        let quoted = try Extraction(spec: #""a,""b":"e.f"+distinct="g=h""#)
        XCTAssertEqual(quoted, Extraction(columns: [#"a,"b"#], table: "e.f", countDistinct: ["g=h"]))
        XCTAssertEqual(quoted.spec, #""a,""b":"e.f"+distinct="g=h""#)
        for bad in ["", ",", "a,", "a:", "a+", "a+counts", "a+distinct", "a+distinct=", "\"a", "a.b", "a:b:c", "a+count x"] {
            XCTAssertThrowsError(try Extraction(spec: bad), bad) { error in
                XCTAssertTrue("\(error)".hasPrefix("--extract \(bad): "), "\(error)")
            }
        }
    }

    func testTheForeignKeyTakesThePlaceOfTheFirstExtractedColumn() throws {
        let plan = try self.plan(PlanOptions(tableName: "t", extractions: [
            Extraction(columns: ["state", "city"], table: "place", count: true),
            Extraction(columns: ["name"], countDistinct: ["agency"]),
        ]))
        let table = plan.mainTable
        XCTAssertEqual(table.columns.map(\.name), ["_id", "name", "agency", "city", "state", "agency_id", "the_geom", "the_geom_longitude", "the_geom_latitude"])
        XCTAssertEqual(table.storedColumns.map(\.name), ["_id", "name_id", "agency", "place_id", "agency_id", "the_geom", "the_geom_longitude", "the_geom_latitude"])
        XCTAssertEqual(table.storedColumn(named: "PLACE_ID")?.type, .integer)
        XCTAssertEqual(table.lookups.map(\.table), ["place", "name"])
        XCTAssertEqual(table.lookups[0].valueColumns, ["state", "city"])
        XCTAssertEqual(table.lookups[0].countColumn, "t_count")
        XCTAssertEqual(table.lookups[1].distinctCounts, [PlanDistinctCount(sourceColumn: "agency", countColumn: "agency_count")])
        // Recorded and read back as it was.
        XCTAssertEqual(try JSONDecoder().decode(LoadPlan.self, from: Data(plan.jsonText.utf8)), plan)
    }

    /// A table loaded with an index over a column (`request.indexes = [["city"]]`) can have that
    /// column extracted later: the index moves to the foreign key.
    func testAnExtractionMovesAnIndexOverItsColumnsToTheForeignKey() throws {
        var table = try plan(PlanOptions(tableName: "t", indexes: [["city"], ["city", "state", "name"], ["name"]])).mainTable
        try table.extract(Extraction(columns: ["city", "state"], table: "place"))
        XCTAssertEqual(table.indexes, [PlanIndex(name: "idx_t_place_id", columns: ["place_id"]),
                                       PlanIndex(name: "idx_t_place_id_name", columns: ["place_id", "name"]),
                                       PlanIndex(name: "idx_t_name", columns: ["name"])])
    }

    func testADistinctCountOfAnExtractedColumnCountsItsForeignKey() throws {
        let before = try plan(PlanOptions(tableName: "t", extractions: [
            Extraction(columns: ["name"]), Extraction(columns: ["city"], countDistinct: ["name"]),
        ]))
        XCTAssertEqual(before.mainTable.lookups[1].distinctCounts[0].sourceColumn, "name_id")
        XCTAssertEqual(before.mainTable.lookups[1].distinctCounts[0].countColumn, "name_count")
        let after = try plan(PlanOptions(tableName: "t", extractions: [
            Extraction(columns: ["city"], countDistinct: ["name"]), Extraction(columns: ["name"]),
        ]))
        XCTAssertEqual(after.mainTable.lookups[0].distinctCounts[0].sourceColumn, "name_id")
        XCTAssertThrowsError(try plan(PlanOptions(tableName: "t", extractions: [
            Extraction(columns: ["city"], countDistinct: ["name"]), Extraction(columns: ["name", "state"]),
        ])))
    }

    func testWhatCannotBeExtractedIsRefusedNamingIt() throws {
        let refusals: [(PlanOptions, String)] = [
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["nope"])]), "t has no column 'nope'"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["_id"])]), "_id is part of t's key"),
            (PlanOptions(tableName: "t", primaryKey: ["name"], extractions: [Extraction(columns: ["name"])]), "name is part of t's key"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["the_geom"])]), "the_geom is a geometry"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["agency"])]), "t has a column agency_id already"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["name", "NAME"])]), "name is named twice"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["name"], table: "t")]), "the lookup cannot be t itself"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["name"], table: "sqlite_x")]), "cannot be a table name"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["name"], table: "_socload_x")]), "cannot be a table name"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["name"]), Extraction(columns: ["name"])]),
             "name was extracted into name already"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["city"], table: "x"), Extraction(columns: ["state"], table: "X")]),
             "x is already the lookup of city"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["city"], countDistinct: ["city"])]),
             "city is one of the extracted columns"),
            (PlanOptions(tableName: "t", extractions: [Extraction(columns: ["city"], table: "l", count: true, countDistinct: ["t"])]),
             "+distinct=t: t has no column 't'"),
            (PlanOptions(tableName: "t", indexes: [["city"]], extractions: [Extraction(columns: ["city"])]),
             "--index city: city was extracted into city; index city_id instead"),
        ]
        for (options, message) in refusals {
            XCTAssertThrowsError(try plan(options), message) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
        // An index over the foreign key is fine, and --pk cannot name an extracted column.
        XCTAssertEqual(try plan(PlanOptions(tableName: "t", indexes: [["city_id"]], extractions: [Extraction(columns: ["city"])]))
            .mainTable.indexes.map(\.columns), [["city_id"]])
        var table = try plan(PlanOptions(tableName: "t", extractions: [Extraction(columns: ["city"])])).mainTable
        XCTAssertThrowsError(try table.setKey(["city"]))
    }

    func testLongNamesAreShortenedInTheLookupsToo() throws {
        let long = String(repeating: "ä", count: 40)
        let plan = try self.plan(PlanOptions(tableName: "t", extractions: [Extraction(columns: ["city"], table: long, count: true)]))
            .withNamesShortened(toBytes: 63)
        let lookup = plan.mainTable.lookups[0]
        XCTAssertLessThanOrEqual(lookup.table.utf8.count, 63)
        XCTAssertLessThanOrEqual(lookup.foreignKey.utf8.count, 63)
        XCTAssertEqual(plan.mainTable.storedColumns.map(\.name).filter { $0.utf8.count > 63 }, [])
        XCTAssertNotEqual(lookup.table, lookup.foreignKey)
    }

    func testPlansRecordedBeforeLookupsStillRead() throws {
        let old = #"{"options":{"includeSystemColumns":false,"indexes":[],"tableName":"t","typeOverrides":{}},"#
            + #""sourceFields":["name"],"tables":[{"columns":[{"name":"name","source":{"field":{"cell":0}},"type":"text"}],"#
            + #""foreignKeys":[],"indexes":[],"name":"t","primaryKey":[],"uniqueKeys":[]}]}"#
        let plan = try JSONDecoder().decode(LoadPlan.self, from: Data(old.utf8))
        XCTAssertEqual(plan.mainTable.lookups, [])
        XCTAssertEqual(plan.options?.extractions, [])
        XCTAssertEqual(plan.mainTable.storedColumns.map(\.name), ["name"])
    }
}
