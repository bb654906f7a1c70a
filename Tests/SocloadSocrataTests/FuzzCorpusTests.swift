import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// Runs the checked-in fuzz corpus (`fuzz/corpus`, and every crash the fuzzer ever found, kept in
/// `fuzz/regressions`) through the same self-check as `make fuzz`, plus every prefix of each file.
final class FuzzCorpusTests: XCTestCase {
    func testCorpusAndRegressions() throws {
        var count = 0
        for folder in ["fuzz/corpus", "fuzz/regressions"] {
            let directory = Fixtures.packageRoot.appendingPathComponent(folder)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for file in files.sorted() where !file.hasPrefix(".") {
                let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
                RowsJSONSelfCheck.run(bytes)
                for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 50)) {
                    RowsJSONSelfCheck.run(Array(bytes.prefix(length)))
                }
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 10)
    }
}
