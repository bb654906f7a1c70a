import Foundation
import SocloadSocrata
import SocloadTestSupport
import XCTest

/// Runs the checked-in fuzz corpus (`fuzz/corpus`, and every crash the fuzzer ever found, kept in
/// `fuzz/regressions`) through the same self-check as `make fuzz` (reading in any chunking, and
/// the converter against the reference decoder), plus prefixes of each file.
final class FuzzCorpusTests: XCTestCase {
    func testCorpusAndRegressions() throws {
        var count = 0
        for folder in ["fuzz/corpus", "fuzz/regressions"] {
            let directory = Fixtures.packageRoot.appendingPathComponent(folder)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for file in files.sorted() where !file.hasPrefix(".") {
                let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(file)))
                XCTAssertNil(ConverterSelfCheck.check(bytes), file)
                for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 50)) {
                    XCTAssertNil(ConverterSelfCheck.check(Array(bytes.prefix(length))), "\(file) cut at \(length)")
                }
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 10)
    }
}
