import SocloadCore
import Foundation

extension ViewMetadata {
    /// Reads a dataset description as `/api/views/ID.json` returns it, strictly (see
    /// `MetadataSyntax`). `source` (its URL) starts the message of a `RowsJSONError.invalidMetadata`.
    ///
    ///     let json = #"{"id":"abcd-1234","columns":[{"fieldName":"name","dataTypeName":"text"}]}"#
    ///     let view = try ViewMetadata(description: Array(json.utf8), source: "test")
    public init(description bytes: [UInt8], source: String) throws {
        try MetadataSyntax.validate(bytes, base: 0, label: "view", context: "\(source) is not a dataset description: ",
                                    watched: MetadataSyntax.viewsAPI)
        do {
            var document = bytes
            self = try Self.decodeInPlace(ViewMetadata.self, from: &document) { $0 }
        } catch {
            let reason: String
            switch error {
            case DecodingError.dataCorrupted(let context): reason = context.underlyingError.map { "\($0)" } ?? context.debugDescription
            case DecodingError.keyNotFound(let key, _): reason = "it has no \(key.stringValue)"
            default: reason = "\(error)"
            }
            throw RowsJSONError.invalidMetadata(detail: "\(source) is not a dataset description: "
                                                + MessageLine.shortened(reason))
        }
    }
}
