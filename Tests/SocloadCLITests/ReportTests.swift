import Foundation
import SocloadTestSupport
import XCTest

/// `socload report` (issue 47): a mirror's refreshes as a self-contained page (checked in
/// headless Chromium: no console error, a screenshot that is not blank, one plot per dataset
/// with refreshes), Markdown, JSON and an Atom feed (parsed by feedparser: well-formed, one
/// entry per refresh that changed something), from the database alone.
final class ReportTests: XCTestCase {
    var directory: TemporaryDirectory!
    var portals: [FakeSocrataPortal] = []
    let day = 86_400
    private var now: Int { Int(Date().timeIntervalSince1970) }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        for portal in portals { portal.stop() }
    }

    private func portal(_ id: String, updatedSecondsAgo: Int, rows: Int) throws -> FakeSocrataPortal {
        let portal = try FakeSocrataPortal(datasetID: id, columns: [.init("name", "text"), .init("amount", "number")],
                                           rows: (1...rows).map(ProjectRefreshTests.row), rowsUpdatedAt: now - updatedSecondsAgo)
        portals.append(portal)
        return portal
    }

    private func run(_ arguments: [String]) throws -> SocloadRun {
        try SocloadProcess.run(arguments, environment: ["SOCLOAD_RETRY_DELAY": "0", "SOCLOAD_CATALOG": "http://127.0.0.1:9"],
                               directory: URL(fileURLWithPath: directory.path("")))
    }

    /// A week of a mirror: three datasets refreshed as their portals change them, one of them
    /// with a hostile name, one that stops updating, one taken down. Returns the changed
    /// refreshes' count (what the feed must list).
    private func mirror(database: String = "mirror.sqlite") throws -> Int {
        let busy = try portal("busy-0001", updatedSecondsAgo: 3 * day, rows: 5)
        let quiet = try portal("quie-0001", updatedSecondsAgo: 90 * day, rows: 3)
        let gone = try portal("gone-0001", updatedSecondsAgo: 2 * day, rows: 4)
        let project = #"{"database": ""# + database + #"", "defaults": {"retries": 0}, "datasets": ["#
            + #"{"id": "busy-0001", "domain": ""# + busy.baseURL + #"", "name": "Permits <script>alert(1)</script> & \u0001 \"quoted\""},"#
            + #"{"id": "quie-0001", "domain": ""# + quiet.baseURL + #"", "expect": "monthly"},"#
            + #"{"id": "gone-0001", "domain": ""# + gone.baseURL + #""}]}"#
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)
        var changed = 3 // three first loads
        for step in 1...3 {
            busy.update({ rows, columns in
                rows.append(ProjectRefreshTests.row(10 + step))
                rows[0].cells["name"] = .text("Edited \(step)")
                if step == 2 {
                    rows.removeLast(2)
                    columns.append(.init("ward", "text"))
                }
            }, rowsUpdatedAt: now - (3 - step) * day)
            let refresh = try run(["refresh", "--quiet"])
            XCTAssertEqual(refresh.status, 0, refresh.stderr)
            changed += 1
        }
        gone.inject { _ in .init(status: 404, body: Array(#"{"message": "No such dataset"}"#.utf8)) }
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)
        return changed
    }

    func testThePageTheMarkdownAndTheJSONSayWhatEachRefreshDid() throws {
        _ = try mirror()
        let made = try run(["report", "--out", "report.html"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(made.stdout, "", "--out writes the file, not standard output")
        let page = try String(contentsOfFile: directory.path("report.html"), encoding: .utf8)
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertFalse(page.contains("<script"), "no script: not the page's, not a dataset name's")
        XCTAssertTrue(page.contains("Permits &lt;script&gt;alert(1)&lt;/script&gt; &amp; \u{FFFD} &quot;quoted&quot;"), page)
        XCTAssertEqual(page.components(separatedBy: "<svg class=\"plot\"").count - 1, 3, "one plot per dataset with refreshes")
        XCTAssertTrue(page.contains("<span class=\"watch gone\">gone</span>"), page)
        XCTAssertTrue(page.contains("<span class=\"watch stale\">stale</span>"), "90 days against monthly")
        XCTAssertTrue(page.contains("the catalog could not be asked for where it went"), "the gone note, as the refresh recorded it")
        let shown = try run(["report", "--format", "markdown"]).stdout
        XCTAssertTrue(page.contains("0 added, 1 changed, 1 removed, 1 schema change"), shown)
        XCTAssertTrue(page.contains("ward"), "the schema change is listed")

        let markdown = try run(["report", "--format", "markdown"])
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        XCTAssertTrue(markdown.stdout.contains("| dataset | watch | rows | last refresh | portal last changed | last change |"))
        XCTAssertTrue(markdown.stdout.contains("## gone-0001 (gone)"), markdown.stdout)
        XCTAssertTrue(markdown.stdout.contains("Permits \\<script\\>alert(1)\\</script\\>"), "no HTML gets through Markdown either")

        let json = try run(["report", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let datasets = try XCTUnwrap(object["datasets"] as? [[String: Any]])
        XCTAssertEqual(datasets.count, 3)
        let busy = try XCTUnwrap(datasets.first { $0["table"] as? String == "busy_0001" })
        XCTAssertEqual((busy["refreshes"] as? [[String: Any]])?.count, 4)
        XCTAssertEqual(((busy["watch"] as? [String: Any])?["state"]) as? String, "fresh", "four daily updates teach the log")
        let only = try run(["report", "gone-0001", "--format", "json"])
        XCTAssertEqual(((try JSONSerialization.jsonObject(with: Data(only.stdout.utf8)) as? [String: Any])?["datasets"] as? [Any])?.count, 1)
        XCTAssertEqual(try run(["report", "nosuch"]).status, 66)
        XCTAssertEqual(try run(["report", "--format", "pdf"]).status, 64)

        // --out is whole or nothing: a folder that is not there fails (74) and leaves nothing.
        let failed = try run(["report", "--out", "missing/report.html"])
        XCTAssertEqual(failed.status, 74, failed.stderr)
        try assertRendersInChromium(directory.path("report.html"), plots: 3)
    }

    func testTheFeedHasOneEntryPerRefreshThatChangedSomethingAndOneADatasetGoneOrStale() throws {
        let changed = try mirror()
        let watched = 2 // gone-0001 gone, quie-0001 stale
        let feed = try run(["report", "--format", "atom", "--feed-url", "https://example.org/mirror.atom"])
        XCTAssertEqual(feed.status, 0, feed.stderr)
        try Data(feed.stdout.utf8).write(to: URL(fileURLWithPath: directory.path("mirror.atom")))
        XCTAssertEqual(feed.stdout.components(separatedBy: "<entry>").count - 1, changed + watched)
        let again = try run(["report", "--format", "atom", "--db", directory.path("mirror.sqlite")])
        let ids = { (text: String) in text.components(separatedBy: "<id>").dropFirst().map { $0.components(separatedBy: "</id>")[0] } }
        XCTAssertEqual(ids(feed.stdout), ids(again.stdout), "an entry keeps its id from one feed to the next, however the file is named")
        let titles = feed.stdout.components(separatedBy: "<entry>\n<title>").dropFirst().compactMap { $0.components(separatedBy: "</title>").first }
        XCTAssertTrue(titles.contains("gone-0001 is gone"), "\(titles)")
        XCTAssertTrue(titles.contains("quie-0001 is stale"), "\(titles)")
        let third = try XCTUnwrap(titles.firstIndex { $0.hasSuffix(": 1 added, 1 changed, 0 removed") })
        let second = try XCTUnwrap(titles.firstIndex { $0.hasSuffix(": 0 added, 1 changed, 1 removed, 1 schema change") })
        XCTAssertLessThan(third, second, "newest first, also among refreshes of one second: \(titles)")
        let python = try PythonEnvironment.python(named: "feedparser-venv", installing: ["feedparser"])
        let check = try ChildProcess.run(python, ["-c", """
            import feedparser, sys
            feed = feedparser.parse(sys.argv[1])
            print(int(bool(feed.bozo)), len(feed.entries), feed.feed.title, len(set(e.id for e in feed.entries)))
            """, directory.path("mirror.atom")])
        XCTAssertEqual(check.status, 0, check.stderr)
        let fields = check.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        XCTAssertEqual(fields.first, "0", "not malformed: \(check.stdout)")
        XCTAssertEqual(fields.dropFirst().first, "\(changed + watched)")
        XCTAssertEqual(fields.last, "\(changed + watched)", "every id different")

        // The stale dataset is taken down: its "gone" entry comes, and its "stale" one stays, same id.
        let staleEntry = try XCTUnwrap(feed.stdout.components(separatedBy: "<entry>").first { $0.contains("<title>quie-0001 is stale</title>") })
        let staleID = staleEntry.components(separatedBy: "<id>")[1].components(separatedBy: "</id>")[0]
        portals[1].inject { _ in .init(status: 404, body: Array(#"{"message": "No such dataset"}"#.utf8)) }
        sleep(1) // another second: the gone entry's own time
        XCTAssertEqual(try run(["refresh", "--quiet"]).status, 0)
        let later = try run(["report", "--format", "atom", "--feed-url", "https://example.org/mirror.atom"]).stdout
        XCTAssertTrue(later.contains("<title>quie-0001 is gone</title>"), later)
        XCTAssertTrue(ids(later).contains(staleID), "the stale entry keeps its id: \(later)")
        XCTAssertEqual(later.components(separatedBy: "<entry>").count - 1, changed + watched + 1)
    }

    /// The real exports in ../shared/datasets (skipped without them): a page with a plot each, and
    /// the frequency New York's description states judging its 2015 rows stale.
    func testAReportOfRealExports() throws {
        guard let shared = Fixtures.sharedDatasets else { throw XCTSkip("../shared/datasets is not here") }
        let files = ["zzzz-zzzz.rows.json", "cqsj-cfgu.rows.json", "mwda-nf2p.rows.json", "5mtp-qs2h.rows.json"]
            .map { shared.appendingPathComponent($0).path }.filter(FileManager.default.fileExists)
        let project = #"{"database": "real.sqlite", "datasets": ["# + files.map { #"{"file": ""# + $0 + #""}"# }.joined(separator: ", ") + "]}"
        try Data(project.utf8).write(to: URL(fileURLWithPath: directory.path("socload.json")))
        let refresh = try run(["refresh", "--quiet"])
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertEqual(try run(["report", "--out", "real.html"]).status, 0)
        let page = try String(contentsOfFile: directory.path("real.html"), encoding: .utf8)
        XCTAssertEqual(page.components(separatedBy: "<svg class=\"plot\"").count - 1, files.count)
        XCTAssertTrue(page.contains("verify: all "), "the exports' own statistics")
        let json = try run(["report", "--format", "json"])
        let datasets = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["datasets"] as? [[String: Any]] ?? []
        let nyc = try XCTUnwrap(datasets.first { $0["table"] as? String == "zzzz_zzzz" })
        XCTAssertEqual((nyc["watch"] as? [String: Any])?["state"] as? String, "stale")
        try assertRendersInChromium(directory.path("real.html"), plots: files.count)
    }

    func testAReportFromPostgreSQL() throws {
        let database = try TestPostgreSQL.makeDatabase()
        _ = try mirror(database: database.url)
        let json = try run(["report", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let states = (object["datasets"] as? [[String: Any]] ?? []).map { (($0["watch"] as? [String: Any])?["state"] as? String) ?? "" }
        XCTAssertEqual(states.sorted(), ["fresh", "gone", "stale"])
    }

    /// Headless Chromium renders the page: its console has no error, the screenshot has more
    /// than one colour, and the page holds `plots` plots. Skipped where Chromium is not installed
    /// (`make test` installs it).
    private func assertRendersInChromium(_ page: String, plots: Int) throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile)
        else { throw XCTSkip("no chromium (make test installs Debian's)") }
        let shot = directory.path("report.png")
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                      "--enable-logging=stderr", "--v=0", "--user-data-dir=" + directory.path("chromium-profile")]
        let rendered = try ChildProcess.run(chromium, common + ["--window-size=1100,1600", "--screenshot=" + shot, "file://" + page])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let console = rendered.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
        XCTAssertEqual(console, [], "the console says nothing: \(console)")
        let colours = try ChildProcess.run("/usr/bin/python3", ["-c", PythonTools.pngColourCount, shot])
        XCTAssertEqual(colours.status, 0, colours.stderr)
        XCTAssertGreaterThan(Int(colours.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 1, "not a blank screenshot")
        let dom = try ChildProcess.run(chromium, common + ["--dump-dom", "file://" + page])
        XCTAssertEqual(dom.status, 0, dom.stderr)
        XCTAssertEqual(dom.stdout.components(separatedBy: "<svg class=\"plot\"").count - 1, plots, "the plots as the browser parsed them")
    }
}
