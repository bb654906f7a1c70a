import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// The plan each dataset's metadata gives, asserted as data: tables, columns, logical types,
/// keys. No SQL here: the plan has none.
final class LoadPlanTests: XCTestCase {
    /// `name:type` of every column, in order.
    private func signature(_ table: PlanTable) -> String {
        table.columns.map { "\($0.name):\($0.type.rawValue)" }.joined(separator: " ")
    }

    private func plan(ofRowsJSON bytes: [UInt8], table: String = "t") throws -> LoadPlan {
        let reader = RowsJSONReader()
        var found: ViewMetadata?
        try bytes.withUnsafeBytes { chunk in
            try reader.feed(chunk, onMetadata: { found = $0 }, onRow: { _ in nil })
        }
        return try LoadPlan.socrata(view: XCTUnwrap(found), options: PlanOptions(tableName: table))
    }

    static let expected: [String: String] = [
        "5mtp-qs2h": "_id:text _created_at:timestamp _updated_at:timestamp projectid:text epgeoname:text "
            + "location1_epromis:json location1_epromis_latitude:double location1_epromis_longitude:double "
            + "location2_secondary:json location2_secondary_latitude:double "
            + "location2_secondary_longitude:double ward:text constituency:text county:text "
            + "project_cost_yearly_breakdown_kes:decimal total_project_cost_kes:decimal "
            + "approval_date:floating_timestamp start_date_planned:floating_timestamp "
            + "start_date_actual:floating_timestamp end_date_planned:floating_timestamp "
            + "end_date_actual:floating_timestamp duration:text duration_months:text project_title:text "
            + "project_description:text project_objectives:text ng_programme:text "
            + "vision_2030_flagship_ministry:text vision_2030_flagship_project_programme:text "
            + "implementing_agency:text implementation_status:text mtef_sector:text work_plan_progress:decimal",
        "bkn9-ng6b": "_id:text _created_at:timestamp _updated_at:timestamp the_geom:geometry mccid_gis:decimal "
            + "mccid_int:decimal mccid_str:text name:text maplabel:text xdate:decimal xorg:text xsource:text",
        "ci7y-pmts": "_id:text _created_at:timestamp _updated_at:timestamp permit_number:text kind:text notes:text "
            + "contact_email:text flag:text fee:decimal valuation:decimal completion:decimal rating:decimal "
            + "density:double approved:boolean applied_date:floating_timestamp issued_at:timestamp site:json "
            + "site_latitude:double site_longitude:double website:text website_description:text phone:text "
            + "phone_type:text point:geometry point_longitude:double point_latitude:double",
        "cqsj-cfgu": "_id:text _created_at:timestamp _updated_at:timestamp the_geom:geometry the_geom_longitude:double "
            + "the_geom_latitude:double borough:text loc:decimal objectid:decimal street_nam:text "
            + "from_stree:text to_street:text index:text may_07_am:decimal may_07_pm:decimal may_07_md:decimal "
            + "sept_07_am:decimal sept_07_pm:decimal sept_07_md:decimal may_08_am:decimal may_08_pm:decimal "
            + "may_08_md:decimal sept_08_am:decimal sept_08_pm:decimal sept_08_md:decimal may_09_am:decimal "
            + "may_09_pm:decimal may_09_md:decimal sept_09_am:decimal sept_09_pm:decimal sept_09_md:decimal "
            + "may_10_am:decimal may_10_pm:decimal may_10_md:decimal sept_10_am:decimal sept_10_pm:decimal "
            + "sept_10_md:decimal may_11_am:decimal may_11_pm:decimal may_11_md:decimal sept_11_am:decimal "
            + "sept_11_pm:decimal sept_11_md:decimal may_12_am:decimal may_12_pm:decimal may_12_md:decimal "
            + "sept_12_am:decimal sept_12_pm:decimal sept_12_md:decimal may_13_am:decimal may_13_pm:decimal "
            + "may_13_md:decimal sept_13_am:decimal sept_13_pm:decimal sept_13_md:decimal may_14_am:decimal "
            + "may_14_pm:decimal may_14_md:decimal sept_14_am:decimal sept_14_pm:decimal sept_14_md:decimal "
            + "may_15_am:decimal may_15_pm:decimal may_15_md:decimal sept_15_am:decimal sept_15_pm:decimal "
            + "sept_15_md:decimal may_16_am:decimal may_16_pm:decimal may_16_md:decimal sept_16_am:decimal "
            + "sept_16_pm:decimal sept_16_md:decimal may_17_am:decimal may_17_pm:decimal may_17_md:decimal "
            + "sept_17_am:decimal sept_17_pm:decimal sept_17_md:decimal may_18_am:decimal may_18_pm:decimal "
            + "may_18_md:decimal sept_18_am:decimal sept_18_pm:decimal sept_18_md:decimal may_19_am:decimal "
            + "may_19_pm:decimal may_19_md:decimal oct_20_am:decimal oct_20_pm:decimal oct_20_md:decimal "
            + "may_21_am:decimal may_21_pm:decimal may_21_md:decimal",
        "geo5-shps": "_id:text _created_at:timestamp _updated_at:timestamp park:text shape:geometry "
            + "shape_longitude:double shape_latitude:double shape_latitude_2:text trail:geometry "
            + "boundary:geometry parcels:geometry paths:geometry benches:geometry photo:json plan:json "
            + "inspections:json tags:json attributes:json extra:json mystery:json",
        "mwda-nf2p": "_id:text _created_at:timestamp _updated_at:timestamp ryane_white_hiv_program_part:text "
            + "fy19_20_rank:decimal fy18_19_rank:decimal fy17_18_rank:decimal fy16_17_rank:decimal "
            + "fy_15_16_rank:decimal fy_14_15_rank:decimal fy_13_14_rank:decimal hrsa_2012_13_app_rank:decimal",
        "n5m4-mism": "_id:text _created_at:timestamp _updated_at:timestamp name:text position:text agency:text "
            + "agency_url:text agency_url_description:text nomination_date:floating_timestamp "
            + "confirmation_date:floating_timestamp confirmation_vote:decimal holdover:boolean status:text",
        "zzzz-zzzz": "_id:text _created_at:timestamp _updated_at:timestamp camis:text dba:text boro:text building:text "
            + "street:text zipcode:text phone:text cuisine_description:text inspection_date:floating_timestamp "
            + "action:text violation_code:text violation_description:text critical_flag:text score:decimal "
            + "grade:text grade_date:floating_timestamp record_date:floating_timestamp inspection_type:text",
    ]

    func testEveryBundledAndSharedDataset() throws {
        var files: [(String, [UInt8])] = try Fixtures.bundledIDs.map { ($0, try Fixtures.bundled($0)) }
        if let shared = Fixtures.sharedDatasets {
            for file in try FileManager.default.contentsOfDirectory(atPath: shared.path).sorted() where file.hasSuffix(".rows.json") {
                files.append((String(file.dropLast(".rows.json".count)), Array(try Data(contentsOf: shared.appendingPathComponent(file)))))
            }
        }
        for (id, bytes) in files {
            let plan = try plan(ofRowsJSON: bytes, table: LoadPlan.tableName(forDatasetID: id))
            XCTAssertEqual(plan.tables.count, 1, id)
            XCTAssertEqual(plan.mainTable.name, LoadPlan.tableName(forDatasetID: id))
            XCTAssertEqual(plan.mainTable.primaryKey, ["_id"], id)
            XCTAssertEqual(plan.mainTable.indexes, [], id)
            XCTAssertEqual(plan.mainTable.foreignKeys, [], id)
            XCTAssertEqual(signature(plan.mainTable), Self.expected[id], id)
        }
    }

    /// `/api/views/ID.json` descriptions, planned as the SODA path plans them.
    func testSharedViewDescriptions() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is absent") }
        func plan(_ file: String) throws -> PlanTable {
            let view = try JSONDecoder().decode(ViewMetadata.self, from: Data(contentsOf: shared.appendingPathComponent(file)))
            return try LoadPlan.socrata(view: view.sodaRowColumns, options: PlanOptions(tableName: "t")).mainTable
        }
        XCTAssertEqual(signature(try plan("cnaz-c5je.views.json")),
                       "_id:text _created_at:timestamp _updated_at:timestamp title:text reports:json fw:json updated:boolean")
        let crimes = try plan("koop-crimes-views.json")
        XCTAssertEqual(crimes.primaryKey, ["_id"])
        XCTAssertTrue(signature(crimes).contains("census_tract:text longitude:decimal latitude:decimal "
                                                 + "incident_location:json incident_location_latitude:double "
                                                 + "incident_location_longitude:double initial_type_description:text"))
        XCTAssertEqual(signature(try plan("koop-schools-view.json")),
                       "_id:text _created_at:timestamp _updated_at:timestamp objectid:decimal shape:json shape_latitude:double "
                       + "shape_longitude:double name:text address:text phone:text website:text grade:text city:text zip:text")
    }

    private var system: [ColumnMetadata] {
        ["sid", "id", "position", "created_at", "created_meta", "updated_at", "updated_meta", "meta"].map {
            ColumnMetadata(name: $0, fieldName: ":" + $0, dataTypeName: "meta_data")
        }
    }

    func testNamesCollideCaseInsensitivelyAndGetSuffixes() throws {
        let view = ViewMetadata(columns: system + [
            ColumnMetadata(fieldName: "name", dataTypeName: "text"), ColumnMetadata(fieldName: "site", dataTypeName: "location"),
            ColumnMetadata(fieldName: "site_latitude", dataTypeName: "text"), ColumnMetadata(fieldName: "Name", dataTypeName: "number"),
            ColumnMetadata(fieldName: "_id", dataTypeName: "text"), ColumnMetadata(fieldName: "", dataTypeName: "checkbox"),
            ColumnMetadata(fieldName: "odd \"q\"", dataTypeName: "hologram"),
        ])
        let table = try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "t")).mainTable
        XCTAssertEqual(signature(table), "_id:text _created_at:timestamp _updated_at:timestamp name:text site:json "
                       + "site_latitude:double site_longitude:double site_latitude_2:text Name_2:decimal _id_2:text "
                       + "column_14:boolean odd \"q\":json")
        XCTAssertEqual(table.primaryKey, ["_id"])
        XCTAssertEqual(table.columns[0].source, .rowIdentifier(sid: 0, id: 1))
        XCTAssertEqual(table.columns[4].source, .part(cell: 9, part: .locationAddress, subColumnTypes: nil))
    }

    func testSystemColumnsOnRequest() throws {
        let view = ViewMetadata(columns: system + [ColumnMetadata(fieldName: "a", dataTypeName: "text")])
        let table = try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "t", includeSystemColumns: true)).mainTable
        XCTAssertEqual(table.columns.map(\.name), ["_id", "_created_at", "_updated_at", "_sid", "_row_id", "_position",
                                                   "_created_meta", "_updated_meta", "_meta", "a"])
        let noSystem = try LoadPlan.socrata(view: ViewMetadata(columns: [ColumnMetadata(fieldName: "a", dataTypeName: "text")]),
                                            options: PlanOptions(tableName: "t"))
        XCTAssertEqual(noSystem.mainTable.primaryKey, [], "no row id, no key")
    }

    func testTypeOverridesAndIndexes() throws {
        let view = ViewMetadata(columns: system + [
            ColumnMetadata(fieldName: "zip", dataTypeName: "number"), ColumnMetadata(fieldName: "site", dataTypeName: "location"),
            ColumnMetadata(fieldName: "when", dataTypeName: "text"),
        ])
        let options = PlanOptions(tableName: "t", typeOverrides: ["zip": .text, "site": .json, "when": .date],
                                  indexes: [["ZIP"], ["when", "_id"]])
        let table = try LoadPlan.socrata(view: view, options: options).mainTable
        XCTAssertEqual(signature(table), "_id:text _created_at:timestamp _updated_at:timestamp zip:text site:json when:date")
        XCTAssertEqual(table.columns[4].source, .field(cell: 9), "an overridden compound field is one column")
        XCTAssertEqual(table.indexes, [PlanIndex(name: "idx_t_zip", columns: ["zip"]),
                                       PlanIndex(name: "idx_t_when__id", columns: ["when", "_id"])])

        XCTAssertThrowsError(try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "t", typeOverrides: ["nope": .text]))) {
            XCTAssertEqual("\($0)", "--type nope=...: the dataset has no column 'nope'")
        }
        XCTAssertThrowsError(try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "t", indexes: [["zip", "nope"]]))) {
            XCTAssertTrue("\($0)".hasPrefix("--index zip,nope: t has no column 'nope' (its columns: _id, _created_at"), "\($0)")
        }
        XCTAssertThrowsError(try LoadPlan.socrata(view: view, options: PlanOptions(tableName: "t", indexes: [["zip", ""]])))
        XCTAssertEqual(LogicalType(name: "NUMBER"), .decimal)
        XCTAssertEqual(LogicalType(name: "calendar_date"), .floatingTimestamp)
        XCTAssertNil(LogicalType(name: "varchar"))
    }

    func testThePlanRoundTripsThroughJSON() throws {
        let plan = try plan(ofRowsJSON: try Fixtures.bundled("ci7y-pmts"))
        let decoded = try JSONDecoder().decode(LoadPlan.self, from: Data(plan.jsonText.utf8))
        XCTAssertEqual(decoded, plan)
        XCTAssertFalse(plan.jsonText.uppercased().contains("CREATE TABLE"), "no SQL in a plan")
    }

    func testTableNames() {
        XCTAssertEqual(LoadPlan.tableName(forDatasetID: "n5m4-mism"), "n5m4_mism")
    }
}
