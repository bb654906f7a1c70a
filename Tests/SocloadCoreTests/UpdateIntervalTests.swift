import Foundation
import SocloadCore
import XCTest

/// The expected update interval of a dataset (issue 47): the words and durations people write,
/// where portals state them (real descriptions and catalog answers), what the refresh log
/// teaches, and the watch each gives.
final class UpdateIntervalTests: XCTestCase {
    private let day = 86_400.0

    func testTheUsualWordsAndTheirVariants() throws {
        let cases: [(String, Double)] = [
            ("hourly", 3_600), ("Daily", day), ("NIGHTLY", day), ("weekly", 7 * day), ("Bi-weekly", 14 * day),
            ("fortnightly", 14 * day), ("Monthly", 30.436_875 * day), ("Semi-monthly", 30.436_875 * day / 2),
            ("Quarterly", 3 * 30.436_875 * day), ("Semi-annually", 365.25 * day / 2), ("Semiannual", 365.25 * day / 2),
            ("Biannually", 365.25 * day / 2), ("Annually", 365.25 * day), ("annual", 365.25 * day), ("yearly", 365.25 * day),
            ("Data are updated daily", day), ("Data is updated quarterly", 3 * 30.436_875 * day), ("every 2 weeks", 14 * day),
            ("Every 3 months", 3 * 30.436_875 * day), ("Real-time", 3_600), ("twice a year", 365.25 * day / 2),
        ]
        for (text, seconds) in cases {
            let interval = try XCTUnwrap(UpdateInterval(text), text)
            XCTAssertEqual(interval.seconds, seconds, accuracy: 1, text)
        }
        XCTAssertEqual(UpdateInterval("Semi-Annually")?.label, "semi-annually", "not read as annually")
        XCTAssertEqual(UpdateInterval("twice a year")?.label, "semi-annually", "one name a length")
        XCTAssertEqual(UpdateInterval("every day")?.label, "daily")
        XCTAssertEqual(UpdateInterval("twice a week")?.seconds, 3.5 * day)
        XCTAssertEqual(UpdateInterval("10 days")?.seconds, 10 * day)
        XCTAssertEqual(UpdateInterval("10 days")?.label, "every 10 days")
        XCTAssertEqual(UpdateInterval("every 5 minutes")?.seconds, 300)
        XCTAssertEqual(UpdateInterval("R/P1W")?.seconds, 7 * day, "DCAT's accrualPeriodicity")
        XCTAssertEqual(UpdateInterval("Data are updated daily - 2 files")?.label, "daily")
        XCTAssertEqual(UpdateInterval("Bi-monthly")?.label, "bimonthly", "not read as monthly")
        for none in ["", "As needed", "Manual Post", "90", "Yes", "4/11/2016", "Historical data", "N/A", "One time", "P", "PT", "P1X",
                     "frequencies", "every -2 days", "-3 days", "every 0 days", "every 100000000000 days", "P99999999999Y"] {
            XCTAssertNil(UpdateInterval(none), none)
        }
    }

    func testISO8601Durations() throws {
        XCTAssertEqual(UpdateInterval("P1D")?.seconds, day)
        XCTAssertEqual(UpdateInterval("PT6H")?.seconds, 6 * 3_600)
        XCTAssertEqual(UpdateInterval("P1W")?.seconds, 7 * day)
        XCTAssertEqual(UpdateInterval("p1dt12h")?.seconds, 1.5 * day)
        XCTAssertEqual(try XCTUnwrap(UpdateInterval("P1Y2M")?.seconds), 365.25 * day + 2 * 30.436_875 * day, accuracy: 1)
        XCTAssertEqual(UpdateInterval("PT30M")?.seconds, 1_800)
        XCTAssertEqual(UpdateInterval("P0.5D")?.seconds, day / 2)
        XCTAssertEqual(UpdateInterval("P3M")?.label, "P3M")
        for bad in ["P1H", "PT1D", "P1DT", "P-1D", "P0D", "PD", "P1D2"] { XCTAssertNil(UpdateInterval(bad), bad) }
    }

    func testCustomFieldsAndDescriptionText() {
        XCTAssertEqual(StatedUpdateFrequency.find(customFields: [.init(group: "Refresh Frequency", field: "Frequency", value: "hourly"),
                                                                 .init(group: "Data Owner", field: "Owner", value: "IT")], description: nil), "hourly")
        XCTAssertNil(StatedUpdateFrequency.find(customFields: [.init(group: "Metadata", field: "Frequency", value: ""), .init(group: "Metadata", field: "Time Period", value: "")],
                                                description: "Landmark districts."))
        XCTAssertEqual(StatedUpdateFrequency.find(customFields: [.init(group: "Frequency", field: "Scheduled Data Update", value: "Manual Post"),
                                                                 .init(group: "Frequency", field: "Publishing", value: "Monthly")], description: nil), "Monthly")
        XCTAssertEqual(StatedUpdateFrequency.find(customFields: [.init(group: "Update", field: "Date Made Public", value: "4/11/2016"),
                                                                 .init(group: "Update", field: "Update Frequency", value: "Daily")], description: nil), "Daily")
        XCTAssertEqual(StatedUpdateFrequency.inText("Permits issued.\n\nUpdate Frequency: Monthly"), "Monthly")
        XCTAssertEqual(StatedUpdateFrequency.inText("Salaries. Frequency: Data is updated quarterly. For more, see the budget."),
                       "Data is updated quarterly")
        XCTAssertEqual(StatedUpdateFrequency.inText("This dataset is updated daily."), "updated daily")
        XCTAssertEqual(StatedUpdateFrequency.inText("Refreshed on a weekly basis"), "refreshed on a weekly basis")
        XCTAssertNil(StatedUpdateFrequency.inText("the hourly rate and frequency of hourly employees (40, 35, 20 and 10)"),
                     "a frequency that is not the dataset's")
        XCTAssertNil(StatedUpdateFrequency.inText("Last updated June 2015"))
        XCTAssertEqual(StatedUpdateFrequency.inText("İstanbul verileri. Update frequency: Weekly"), "Weekly", "non-ASCII text before it")
    }

    /// The real descriptions and catalog answers in ../shared/datasets (skipped without them).
    func testTheStatedFrequenciesOfRealDescriptions() throws {
        // ../shared/datasets beside the package (not part of the repository).
        let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/datasets")
        guard FileManager.default.fileExists(atPath: shared.path) else { throw XCTSkip("../shared/datasets is not here") }
        func view(_ file: String) throws -> [String: Any] {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: shared.appendingPathComponent(file))) as? [String: Any])
            return (object["meta"] as? [String: Any])?["view"] as? [String: Any] ?? object
        }
        func stated(_ view: [String: Any]) -> String? {
            let groups = (view["metadata"] as? [String: Any])?["custom_fields"] as? [String: [String: String]] ?? [:]
            let fields = groups.sorted { $0.key < $1.key }.flatMap { group in
                group.value.sorted { $0.key < $1.key }.map { CustomField(group: group.key, field: $0.key, value: $0.value) }
            }
            return StatedUpdateFrequency.find(customFields: fields, description: view["description"] as? String)
        }
        XCTAssertEqual(stated(try view("koop-crimes-views.json")).flatMap { UpdateInterval($0) }?.label, "hourly")
        XCTAssertEqual(stated(try view("zzzz-zzzz.rows.json")).flatMap { UpdateInterval($0) }?.label, "daily")
        XCTAssertNil(stated(try view("data.cityofchicago.org__zidz-sdfj__views.json")), "Chicago's Frequency is empty")
        XCTAssertNil(stated(try view("cqsj-cfgu.rows.json")), "only a date made public")

        // Catalog answers: the description text and the domain metadata (`Group_Field` keys).
        var found: [String: String] = [:]
        for file in ["catalog.api.us.socrata.com__v1-b7b6cd.json", "catalog.api.us.socrata.com__v1-086e69.json"] {
            let answer = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: shared.appendingPathComponent(file))) as? [String: Any])
            for result in answer["results"] as? [[String: Any]] ?? [] {
                let resource = result["resource"] as? [String: Any] ?? [:]
                let metadata = (result["classification"] as? [String: Any])?["domain_metadata"] as? [[String: String]] ?? []
                let fields = metadata.map { pair -> CustomField in
                    let key = pair["key"] ?? ""
                    let parts = key.split(separator: "_", maxSplits: 1).map(String.init)
                    return CustomField(group: parts.first ?? "", field: parts.count > 1 ? parts[1] : "", value: pair["value"] ?? "")
                }
                if let text = StatedUpdateFrequency.find(customFields: fields, description: resource["description"] as? String),
                   let id = resource["id"] as? String {
                    found[id] = UpdateInterval(text)?.label
                }
            }
        }
        XCTAssertEqual(found["xzkq-xp2w"], "daily", "Metadata_Frequency, not the description's 'frequency of hourly employee'")
        XCTAssertEqual(found["smwt-b3i9"], "quarterly")
        XCTAssertEqual(found["ez4e-fazm"], "daily")
        XCTAssertEqual(found["6qat-uaei"], "semi-annually")
        XCTAssertEqual(found["ycrg-ses3"], "annually")
        XCTAssertEqual(found["nmjv-498y"], "monthly")
        XCTAssertNil(found["zidz-sdfj"])
        XCTAssertNil(found["6uva-a5ei"], "a time period is no frequency")
    }

    func testTheLogTeachesAnIntervalAfterFourUpdates() {
        let weekly = ["2026-01-01T00:00:00Z", "2026-01-08T00:00:00Z", "2026-01-08T00:00:00Z", "2026-01-15T00:00:00Z"]
        XCTAssertNil(LearnedUpdateInterval.from(stamps: weekly), "three distinct updates are too few")
        let four = weekly + ["2026-01-23T00:00:00Z", "not a time"]
        XCTAssertEqual(LearnedUpdateInterval.from(stamps: four)?.seconds, 7 * day, "the median gap")
        XCTAssertEqual(LearnedUpdateInterval.from(stamps: four)?.label, "about 7 days")
        XCTAssertEqual(LearnedUpdateInterval.from(stamps: four + ["2026-03-01T00:00:00Z"])?.seconds, 7.5 * day, "even: the mean of the middle two")
    }

    func testTheWatchOfADatasetThePortalStillServes() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let daily = DatasetWatch.Expectation(interval: UpdateInterval("daily")!, source: .portal)
        let limit = DatasetWatch.staleAfter(daily.interval)
        XCTAssertEqual(limit, 2.5 * day)
        XCTAssertEqual(DatasetWatch.judge(expected: daily, portalRowsUpdatedAt: now.addingTimeInterval(-limit), now: now).state, .fresh)
        let stale = DatasetWatch.judge(expected: daily, portalRowsUpdatedAt: now.addingTimeInterval(-limit - 1), now: now)
        XCTAssertEqual(stale.state, .stale)
        XCTAssertEqual(stale.note, "the portal last changed its rows 2027-01-12T19:59:59Z (2.5 days ago); expected daily (portal), "
                       + "stale after 2.5 days")
        let monthly = DatasetWatch.Expectation(interval: UpdateInterval("monthly")!, source: .project)
        XCTAssertEqual(DatasetWatch.judge(expected: monthly, portalRowsUpdatedAt: now.addingTimeInterval(-60 * day), now: now).note,
                       "the portal last changed its rows 2026-11-16T08:00:00Z (60 days ago); expected monthly (project), "
                       + "stale after 46.6 days", "both in one unit: never '1 month ago, stale after 46 days'")
        XCTAssertEqual(DatasetWatch.judge(expected: nil, portalRowsUpdatedAt: nil, now: now).note,
                       "the source states no time its data last changed (rowsUpdatedAt) to judge by", "no hint an expect would not answer")
        XCTAssertEqual(DatasetWatch.judge(expected: nil, portalRowsUpdatedAt: now, now: now).state, .unknown)
        XCTAssertEqual(DatasetWatch.judge(expected: daily, portalRowsUpdatedAt: nil, now: now).state, .unknown)
        XCTAssertEqual(DatasetWatch.gone(answer: "HTTP 404 Not Found", candidates: [], expected: nil).state, .gone)
        let moved = DatasetWatch.gone(answer: "HTTP 410 Gone", candidates: ["abcd-1234"], expected: daily)
        XCTAssertEqual(moved.state, .moved)
        XCTAssertEqual(moved.movedTo, ["abcd-1234"])
    }
}
