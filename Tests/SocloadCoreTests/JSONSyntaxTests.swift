import SocloadCore
import XCTest

/// `JSONSyntax.isOneValue`: exactly the texts RFC 8259 calls one JSON value.
final class JSONSyntaxTests: XCTestCase {
    func testValidValues() {
        for text in [#"{"a": [1, true, null, -0.5e+3, "é\n\u00e9\"\\"], "b": {}}"#, "[]", "{}", " 12 ", "0", "-1.25E-7", #""""#,
                     "true", "false", "null", #"[[[[[]]]]]"#, "\t{\"k\":\r\n1}\n"] {
            XCTAssertTrue(JSONSyntax.isOneValue(Array(text.utf8)), text)
        }
    }

    func testInvalidValues() {
        for text in ["", "plain text", "{abc}", "[1,]", "[1 2]", #"{"a" 1}"#, #"{"a": }"#, "01", "1.", ".5", "-", "1e", "tru",
                     "nulll", #""unterminated"#, "\"tab\there\"", #""\x""#, #""\u12G4""#, "[1] [2]", "{\"a\":1,}", "[", "}"] {
            XCTAssertFalse(JSONSyntax.isOneValue(Array(text.utf8)), text)
        }
    }
}
