import Foundation
import SocloadTestSupport
import XCTest

/// What a person at a terminal sees: run under `script`, which gives the program a pseudo-terminal.
final class TerminalTests: XCTestCase {
    private func runInTerminal(_ arguments: [String]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("util-linux's script is not installed")
        }
        let command = ([SocloadProcess.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func testDefaultFormatOnATerminalIsTable() throws {
        let directory = try TemporaryDirectory()
        let db = try SampleDatabase.create(in: directory)
        let output = try runInTerminal(["query", "select id, name from people where id < 3 order by id", "--db", db])
        XCTAssertEqual(output.replacingOccurrences(of: "\r\n", with: "\n"), "id  name\n--  --------\n 1  Ann\n 2  Zoë 中文\n")
    }

    func testProgressIsDrawnOnATerminalAndClearedBeforeTheSummary() throws {
        let directory = try TemporaryDirectory()
        let dataset = try CrashSafetyTests.largeDataset(in: directory)
        let output = try runInTerminal(["fetch", dataset, "--db", directory.path("p.sqlite"), "--table", "t"])
        XCTAssertTrue(output.contains("\r\u{1B}[K"), "progress redraws in place")
        XCTAssertTrue(output.contains(" rows/s"), output.suffix(300).description)
        XCTAssertTrue(output.contains(" MB of "), "bytes of the known total")
        XCTAssertTrue(output.contains("Loaded 30,000 rows into t ("), output.suffix(300).description)
        let quiet = try runInTerminal(["fetch", dataset, "--db", directory.path("q.sqlite"), "--table", "t", "--quiet"])
        XCTAssertEqual(quiet, "", "--quiet: no progress and no summary on success")
    }
}
