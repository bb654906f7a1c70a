import SocloadCore
import SocloadPlatforms
import XCTest

/// The examples of the other platforms' doc comments (issue 49).
extension DocCommentExamples {
    func testPlatformExamples() throws {
        // DataPlatform
        let platform = DataPlatform(name: "opendatasoft")   // .ods
        XCTAssertEqual(platform, .ods)
        // PlatformLocator
        let locator = try PlatformLocator(url: "https://demo.ckan.org/dataset/frictionless/resource/66cac6ef", platform: nil)
        XCTAssertEqual(locator, .ckan(CKANLocator(base: "https://demo.ckan.org", package: "frictionless", resource: "66cac6ef")))
    }
}
