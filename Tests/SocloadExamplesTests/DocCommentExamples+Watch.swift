import Foundation
import SocloadCore
import SocloadDatabase
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

    /// `UpdateInterval(exactly:)`: a project's `"expect"`, nothing but the interval.
    func testUpdateIntervalExactlyExample() {
        XCTAssertEqual(UpdateInterval(exactly: "weekly")?.label, "weekly")
        XCTAssertNil(UpdateInterval(exactly: "weekly, mostly"))
        XCTAssertEqual(UpdateInterval(exactly: "every 2 weeks")?.label, "every 2 weeks")
        XCTAssertEqual(UpdateInterval(exactly: "10 days")?.label, "every 10 days")
        XCTAssertEqual(UpdateInterval(exactly: "P3D")?.seconds, 3 * 86_400)
        XCTAssertNil(UpdateInterval(exactly: "every 2 weeks or so"))
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

/// The examples of the report's doc comments.
extension DocCommentExamples {
    /// `MirrorReport`: an empty report is still a page.
    func testMirrorReportExample() {
        let report = MirrorReport(title: "Newsroom mirror", generatedAt: "2026-12-05T06:00:00Z", database: "'watch.sqlite'")
        print(report.html().hasPrefix("<!DOCTYPE html>"))   // true
        XCTAssertTrue(report.html().hasPrefix("<!DOCTYPE html>"))
    }

    /// `MarkupText`: the markup characters escaped.
    func testMarkupTextExample() {
        print(MarkupText.escaped("<b>Tom & \"Jerry\"</b>"))   // &lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;
        XCTAssertEqual(MarkupText.escaped("<b>Tom & \"Jerry\"</b>"), "&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;")
    }

    /// `RefreshPlot`: nothing to draw without refreshes.
    func testRefreshPlotExample() {
        let plot = RefreshPlot(refreshes: [], label: "n5m4_mism").svg
        print(plot.isEmpty)   // true: nothing to draw
        XCTAssertTrue(plot.isEmpty)
    }

    /// `WatchLog`: its table, in the database's dialect.
    func testWatchLogExample() {
        let log = WatchLog(dialect: SQLiteDialect())
        print(log.createStatement)   // CREATE TABLE IF NOT EXISTS "_socload_watch" (...)
        XCTAssertTrue(log.createStatement.hasPrefix("CREATE TABLE IF NOT EXISTS \"_socload_watch\" ("))
    }
}

/// The example of the kept versions' checksums.
extension DocCommentExamples {
    /// `SHA256`: FIPS 180-4's "abc".
    func testSHA256Example() {
        var hash = SHA256()
        hash.update(Array("abc".utf8))
        print(hash.hexDigest())   // ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
        var again = SHA256()
        again.update(Array("abc".utf8))
        XCTAssertEqual(again.hexDigest(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
