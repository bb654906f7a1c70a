import Foundation
import SocloadCore
import XCTest

/// The examples of the watch's doc comments (issue 47): intervals, where portals state them,
/// what the refresh log teaches, and the watch they give.
extension DocCommentExamples {
    /// `UpdateInterval`: the words people write, and ISO 8601 durations.
    func testUpdateIntervalExample() throws {
        let interval = UpdateInterval("Data are updated quarterly")!
        print(interval.label, interval.seconds)   // quarterly 7889238.0
        XCTAssertEqual(interval.label, "quarterly")
        XCTAssertEqual(interval.seconds, 7_889_238, accuracy: 1)
    }

    /// `StatedUpdateFrequency`: a custom field before the description's text.
    func testStatedUpdateFrequencyExample() {
        let stated = StatedUpdateFrequency.find(customFields: [CustomField(group: "Update", field: "Update Frequency", value: "Daily")],
                                                description: nil)
        print(stated ?? "none")   // Daily
        XCTAssertEqual(stated, "Daily")
    }

    /// `LearnedUpdateInterval`: the median gap of four portal updates.
    func testLearnedUpdateIntervalExample() {
        let stamps = ["2026-01-01T00:00:00Z", "2026-01-08T00:00:00Z", "2026-01-15T00:00:00Z", "2026-01-22T00:00:00Z"]
        print(LearnedUpdateInterval.from(stamps: stamps)?.label ?? "too few")   // about 7 days
        XCTAssertEqual(LearnedUpdateInterval.from(stamps: stamps)?.label, "about 7 days")
    }

    /// `DatasetWatch.judge`: rows last changed in 1970 against a daily expectation.
    func testDatasetWatchExample() {
        let watch = DatasetWatch.judge(expected: .init(interval: UpdateInterval("daily")!, source: .project),
                                       portalRowsUpdatedAt: Date(timeIntervalSince1970: 0), now: Date())
        print(watch.state)   // stale
        XCTAssertEqual(watch.state, .stale)
    }
}
