import Foundation
import SocloadCore
@testable import SocloadSocrata
import XCTest

/// The update frequency a dataset's description states (issue 47) is kept in its dictionary:
/// from the custom fields (any group, any field name that says frequency), else from the
/// description's text, also when that text is long enough to be decoded apart.
final class StatedFrequencyTests: XCTestCase {
    private func view(_ members: String) throws -> ViewMetadata {
        try ViewMetadata(description: Array((#"{"id": "abcd-1234", "columns": [], "# + members + "}").utf8), source: "test")
    }

    func testCustomFieldsThenTheDescription() throws {
        let fields = try view(#""metadata": {"custom_fields": {"Refresh Frequency": {"Frequency": "hourly"}, "Owner": {"N": 3}}}"#)
        XCTAssertEqual(fields.dictionary.updateFrequency, "hourly")
        let nyc = try view(#""metadata": {"custom_fields": {"Update": {"Date Made Public": "4/11/2016", "Update Frequency": "Daily"}}},"#
                           + #" "description": "Inspections. Update Frequency: Monthly""#)
        XCTAssertEqual(nyc.dictionary.updateFrequency, "Daily", "the custom field before the text")
        let text = try view(#""description": "Inspections.\n\nUpdate Frequency: Monthly""#)
        XCTAssertEqual(text.dictionary.updateFrequency, "Monthly")
        XCTAssertNil(try view(#""metadata": {"custom_fields": {"Metadata": {"Frequency": ""}}}, "metadata2": 1"#).dictionary.updateFrequency)
        XCTAssertNil(try view(#""metadata": {"rowLabel": "Row"}"#).dictionary.updateFrequency)
        XCTAssertNil(try view(#""metadata": []"#).dictionary.updateFrequency, "metadata of another shape is no error")
    }

    func testALongDescriptionIsReadForItToo() throws {
        let long = String(repeating: "A long description of the dataset. ", count: 40_000) + "Update Frequency: Quarterly"
        let view = try view(#""description": ""# + long + "\"")
        XCTAssertEqual(view.dictionary.description, long)
        XCTAssertEqual(view.dictionary.updateFrequency, "Quarterly")
    }
}
