import Foundation
import SocloadDatabase
import SocloadTestSupport
import XCTest

/// SIGINT and SIGTERM end a load within a second whatever it waits for — a FIFO with no writer, a
/// writer that stalls, standard input, a process substitution, another process's lock — with exit
/// 130 / 143 and the previous table unchanged. And standard input and FIFOs load.
final class SignalTests: XCTestCase {
    var directory: TemporaryDirectory!
    var db: String!
    let dataset = Fixtures.datasetsDirectory.appendingPathComponent("n5m4-mism.json").path

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        db = directory.path("signals.sqlite")
        let first = try SocloadProcess.run(["fetch", dataset, "--table", "t", "--db", db])
        XCTAssertEqual(first.status, 0, first.stderr)
    }

    private func tableState() throws -> String {
        try SocloadProcess.run(["query", "select count(*), (select group_concat(table_name || fetched_at) from _socload_datasets) from t",
                                "--db", db, "--format", "csv"]).stdout
    }

    /// Starts `process`, waits, sends `signal`, and checks the exit status, the one-line message,
    /// that it came within a second, and that table t is as it was.
    private func assertInterrupted(_ process: Process, by signal: Int32 = SIGINT, after delay: Double = 0.8,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try tableState()
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        XCTAssertTrue(process.isRunning, "the load ended before the signal", file: file, line: line)
        let sent = Date()
        kill(process.processIdentifier, signal)
        let took = Self.secondsUntilExit(process.processIdentifier, since: sent)
        process.waitUntilExit()
        let output = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, signal == SIGINT ? 130 : 143, output, file: file, line: line)
        XCTAssertLessThan(took, 1.0, "exit came \(took) s after the signal", file: file, line: line)
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        XCTAssertEqual(output, "Error: interrupted by \(name); t was not changed\n", file: file, line: line)
        XCTAssertEqual(try tableState(), before, file: file, line: line)
    }

    /// How long after `since` the process became a zombie or vanished (Foundation's
    /// waitUntilExit also waits for children it left behind, such as a process substitution's).
    private static func secondsUntilExit(_ pid: Int32, since: Date) -> Double {
        while Date().timeIntervalSince(since) < 10 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { break }
            if stat[close...].dropFirst(2).first == "Z" { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return Date().timeIntervalSince(since)
    }

    private func socload(_ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = SocloadProcess.executable
        process.arguments = arguments
        process.standardOutput = Pipe()
        return process
    }

    private func makeFIFO() -> String {
        let path = directory.path("fifo-\(UUID().uuidString.prefix(8))")
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        return path
    }

    func testFIFOWithNoWriter() throws {
        let fifo = makeFIFO()
        try assertInterrupted(socload(["fetch", fifo, "--table", "t", "--db", db]), by: SIGINT)
        try assertInterrupted(socload(["fetch", fifo, "--table", "t", "--db", db]), by: SIGTERM)
    }

    func testFIFOWhoseWriterStallsMidDocument() throws {
        let fifo = makeFIFO()
        let process = socload(["fetch", fifo, "--table", "t", "--db", db])
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            guard descriptor >= 0 else { return }
            let half = (try? Fixtures.bundled("n5m4-mism").prefix(20_000)) ?? []
            _ = Array(half).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            Thread.sleep(forTimeInterval: 3)
            close(descriptor)
        }
        writer.start()
        try assertInterrupted(process, by: SIGTERM)
    }

    func testStandardInputThatStalls() throws {
        let process = socload(["fetch", "-", "--table", "t", "--db", db])
        let input = Pipe()
        process.standardInput = input
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            input.fileHandleForWriting.write(Data(((try? Fixtures.bundled("n5m4-mism")) ?? []).prefix(20_000)))
        }
        try assertInterrupted(process, by: SIGINT)
        try? input.fileHandleForWriting.close()
    }

    func testProcessSubstitutionThatStalls() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // The substituted command's standard error is not the test's pipe, which it would hold open.
        process.arguments = ["-c", #"exec "$0" fetch <(exec 2>/dev/null; head -c 20000 "$1"; sleep 3) --table t --db "$2""#,
                             SocloadProcess.executable.path, dataset, db]
        process.standardOutput = Pipe()
        try assertInterrupted(process, by: SIGINT)
    }

    func testWaitingForAnotherProcesssLock() throws {
        let holder = try DatabaseQueue(path: db)
        try holder.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        defer { holder.inDatabase { db in db.rollbackIfNeeded() } }
        // socload waits up to 5 s for the lock: the signal must end the wait.
        try assertInterrupted(socload(["fetch", dataset, "--table", "t", "--db", db]), by: SIGTERM, after: 1.0)
    }

    func testNetworkStallMidBody() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let body = try Fixtures.bundled("n5m4-mism")
        server.route("/api/views/slow-0001/rows.json", .init(body: body, delivery: .partialThenStall(bytes: body.count / 2, seconds: 20)))
        try assertInterrupted(socload(["fetch", "slow-0001", "--domain", server.baseURL, "--table", "t", "--db", db]), by: SIGTERM)
    }

    func testStandardInputFIFOAndProcessSubstitutionLoad() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dataset))
        let fromStdin = try SocloadProcess.run(["fetch", "-", "--table", "s", "--db", db], stdin: bytes)
        XCTAssertEqual(fromStdin.status, 0, fromStdin.stderr)
        XCTAssertTrue(fromStdin.stderr.contains("Loaded 300 rows into s (13 columns) from standard input"), fromStdin.stderr)

        let fifo = makeFIFO()
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            guard descriptor >= 0 else { return }
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        writer.start()
        XCTAssertEqual(try SocloadProcess.run(["fetch", fifo, "--table", "f", "--db", db]).status, 0)

        let substitution = Process()
        substitution.executableURL = URL(fileURLWithPath: "/bin/bash")
        substitution.arguments = ["-c", #"exec "$0" fetch <(cat "$1") --table p --db "$2""#, SocloadProcess.executable.path, dataset, db]
        substitution.standardError = Pipe()
        try substitution.run()
        substitution.waitUntilExit()
        XCTAssertEqual(substitution.terminationStatus, 0)

        let counts = try SocloadProcess.run(["query", "select (select count(*) from s), (select count(*) from f), (select count(*) from p)",
                                             "--db", db, "--format", "csv"])
        XCTAssertEqual(counts.stdout, "(select count(*) from s),(select count(*) from f),(select count(*) from p)\r\n300,300,300\r\n")
    }
}
