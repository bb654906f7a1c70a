import SocloadCore
import XCTest

/// SHA-256 against the FIPS 180-4 examples and NIST's long-message vector, fed whole and in
/// pieces that straddle the 64-byte blocks.
final class SHA256Tests: XCTestCase {
    private func hex(_ bytes: [UInt8], pieces: Int = 1) -> String {
        var hash = SHA256()
        let size = max(1, bytes.count / pieces)
        var start = 0
        while start < bytes.count {
            hash.update(Array(bytes[start..<min(bytes.count, start + size)]))
            start += size
        }
        return hash.hexDigest()
    }

    func testTheStandardsVectors() {
        XCTAssertEqual(hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let twoBlocks = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        XCTAssertEqual(hex(twoBlocks), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex(twoBlocks, pieces: 7), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        XCTAssertEqual(hex(million, pieces: 13), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        for length in [55, 56, 63, 64, 65, 119, 120, 128] {
            let bytes = (0..<length).map { UInt8($0 % 251) }
            XCTAssertEqual(hex(bytes), hex(bytes, pieces: 3), "padding at \(length) bytes")
        }
    }
}
