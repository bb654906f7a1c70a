import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// Runs the checked-in fuzz corpora, and every input a fuzzer ever stopped on (kept in
/// `fuzz/regressions*`), through the same self-checks as `make fuzz`, plus prefixes of each file:
/// the rows.json reader and converter against the reference decoder, dataset descriptions read
/// both ways, and SODA pages against the reference decoder.
final class FuzzCorpusTests: XCTestCase {
    /// Runs `check` on every file of the folders and on cuts of each; returns how many files.
    private func run(_ folders: [String], _ check: ([UInt8]) -> String?) throws -> Int {
        var count = 0
        for folder in folders {
            let directory = Fixtures.packageRoot.appendingPathComponent(folder)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for file in files.sorted() where !file.hasPrefix(".") {
                let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
                XCTAssertNil(check(bytes), "\(folder)/\(file)")
                for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 50)) {
                    XCTAssertNil(check(Array(bytes.prefix(length))), "\(folder)/\(file) cut at \(length)")
                }
                count += 1
            }
        }
        return count
    }

    func testRowsJSONCorpusAndRegressions() throws {
        XCTAssertGreaterThan(try run(["fuzz/corpus", "fuzz/regressions"], ConverterSelfCheck.check), 10)
    }

    func testMetadataCorpusAndRegressions() throws {
        XCTAssertGreaterThan(try run(["fuzz/corpus-metadata", "fuzz/regressions-metadata"], MetadataSelfCheck.check), 5)
    }

    func testSODAPageCorpusAndRegressions() throws {
        XCTAssertGreaterThan(try run(["fuzz/corpus-soda-page", "fuzz/regressions-soda-page"], SODAPageSelfCheck.check), 5)
    }

    /// The checks themselves catch what they are for (a check that can never fail proves nothing).
    func testTheChecksFindDisagreements() {
        XCTAssertEqual(MetadataSelfCheck.duplicateName(in: Array(#"{"id":"a","columns":[{"f":1,"f":2}]}"#.utf8)), "f")
        XCTAssertNil(MetadataSelfCheck.duplicateName(in: Array(#"{"id":"a","columns":[{"f":1},{"f":2}]}"#.utf8)))
    }
}
