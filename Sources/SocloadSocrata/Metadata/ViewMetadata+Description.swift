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
            if Self.isRowsJSONExport(bytes) {
                throw RowsJSONError.invalidMetadata(detail: "\(source) is a rows.json export, not a dataset description: "
                                                    + "socload fetch loads it whole; a description is /api/views/ID.json")
            }
            throw RowsJSONError.invalidMetadata(detail: "\(source) is not a dataset description: "
                                                + MessageLine.shortened(reason))
        }
    }

    /// True when `bytes` are an object with `meta` and `data` members, as a rows.json export is
    /// (read in place, on the error path only).
    private static func isRowsJSONExport(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var members: [RawMember] = []
            guard (try? RawObjectParser.members(of: buffer, in: RawObjectParser.trimmed(buffer), into: &members)) != nil else {
                return false
            }
            let keys = Set(members.map { $0.key(in: buffer) })
            return keys.contains("meta") && keys.contains("data")
        }
    }
}
