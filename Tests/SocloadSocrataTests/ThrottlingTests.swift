import Foundation
@testable import SocloadSocrata
import SocloadTestSupport
import XCTest

/// A portal that answers 429 to every request, after every retry: an anonymous load says the
/// portal throttles requests without an app token and how to pass one; with a token the error is
/// the portal's alone.
final class ThrottlingTests: XCTestCase {
    func testAnAnonymousLoadThrottledToTheEndSaysHowToPassAToken() throws {
        let portal = try FakePortalDataset.makePortal()
        defer { portal.stop() }
        portal.inject { _ in .init(status: 429, body: Array(#"{"message":"Too many requests"}"#.utf8)) }
        let harness = try LoadHarness()
        let reference = try DatasetReference.resolve(FakePortalDataset.id, domain: portal.baseURL, datasetsDirectories: [])
        for api in [DatasetAPI.rows, .soda2] {
            var request = LoadRequest(reference: reference)
            request.api = api
            XCTAssertThrowsError(try harness.load(request)) { error in
                XCTAssertTrue(error is AnonymousRequestsThrottled, "\(api): \(error)")
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix("HTTP 429 Too Many Requests from \(portal.baseURL)/"), text)
                XCTAssertTrue(text.hasSuffix("(anonymous requests are throttled: pass an app token, --app-token, "
                                             + "$SOCRATA_APP_TOKEN or the credentials file)"), text)
                XCTAssertEqual((error as? AnonymousRequestsThrottled)?.kind, .unavailable)
            }
        }
        var request = LoadRequest(reference: reference)
        request.api = .soda2
        XCTAssertThrowsError(try harness.load(request, http: HTTPOptions(appToken: "a-token"))) { error in
            XCTAssertFalse(error is AnonymousRequestsThrottled, "with a token the portal's error is said as it is: \(error)")
            XCTAssertTrue("\(error)".contains("HTTP 429"), "\(error)")
        }
    }
}
