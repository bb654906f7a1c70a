import Foundation
import SocloadTestSupport
import XCTest

/// What the tests of `socload load` share: a scratch directory, the command run against a
/// database, its CSV output and column types, and both kinds of database to run it on.
class DocumentTestCase: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    func socload(_ arguments: [String], db: String, stdin: Data? = nil) throws -> SocloadRun {
        try SocloadProcess.run(arguments + ["--db", db], environment: ["SOCLOAD_RETRY_DELAY": "0.01"], stdin: stdin)
    }

    @discardableResult
    func succeed(_ arguments: [String], db: String, stdin: Data? = nil,
                         file: StaticString = #filePath, line: UInt = #line) throws -> SocloadRun {
        let run = try socload(arguments, db: db, stdin: stdin)
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)", file: file, line: line)
        return run
    }

    func csv(_ sql: String, db: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try succeed(["query", sql, "--format", "csv"], db: db, file: file, line: line).stdout
            .split(whereSeparator: \.isNewline).map(String.init)
    }

    /// `column=logical_type` for each column of a table, from `schema`.
    func types(_ table: String, db: String) throws -> [String] {
        try succeed(["schema", table, "--format", "csv"], db: db).stdout.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return "\(fields[0])=\(fields[fields.count - 1])"
        }
    }

    func databases() throws -> [(String, TestPostgreSQL.TestDatabase?)] {
        let postgreSQL = try TestPostgreSQL.makeDatabase()
        return [(directory.path("documents.sqlite"), nil), (postgreSQL.url, postgreSQL)]
    }

    func write(_ text: String, to name: String) throws -> String {
        let path = directory.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
