import Foundation
import SocloadSocrata
import SocloadTestSupport
import SocloadTransport
import XCTest

/// A file's signature made as it is read for its load (`FileSignature.Reading`) is the one a
/// second read would make of the same bytes, is made only of a whole read, and describes what
/// was read: a file changed after is not taken for the one loaded.
final class FileSignatureTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("socload-signature-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testASignatureMadeAsTheFileIsReadIsTheOneAReadAfterMakes() throws {
        let path = folder.appendingPathComponent("rows.json").path
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: path))
        var reading = FileSignature.Reading(path: path)
        try FileByteSource.read(path, cancellation: nil) { reading?.add($0) }
        let signature = reading?.text
        XCTAssertNotNil(signature)
        XCTAssertEqual(signature, try FileSignature.text(ofFile: path))
        XCTAssertTrue(try FileSignature.unchanged(path, since: signature))

        // Read in part (a load cut short by --limit): no signature.
        var part = FileSignature.Reading(path: path)
        part?.add(UnsafeRawBufferPointer(start: nil, count: 0))
        try Data(count: 10).withUnsafeBytes { part?.add($0) }
        XCTAssertNil(part?.text)

        // Standard input has none.
        XCTAssertNil(FileSignature.Reading(path: "-"))
    }

    func testAFileChangedAfterItsReadBeganIsNotTakenForTheOneRead() throws {
        let path = folder.appendingPathComponent("rows.json").path
        try Data(repeating: 65, count: 100_000).write(to: URL(fileURLWithPath: path))
        var reading = FileSignature.Reading(path: path)
        var first = true
        try FileByteSource.read(path, cancellation: nil) { chunk in
            reading?.add(chunk)
            if first {
                // Rewritten, same size, while it is read: the time it had when the read began is kept.
                first = false
                Thread.sleep(forTimeInterval: 0.02)
                try Data(repeating: 66, count: 100_000).write(to: URL(fileURLWithPath: path))
            }
        }
        let signature = try XCTUnwrap(reading?.text)
        XCTAssertFalse(try FileSignature.unchanged(path, since: signature))
        XCTAssertNotEqual(signature, try FileSignature.text(ofFile: path))
    }
}
