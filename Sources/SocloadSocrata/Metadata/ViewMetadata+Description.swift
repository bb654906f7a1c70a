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

extension ViewMetadata {
    /// The description as `/api/views/ID.json` would give it (what `init(description:source:)`
    /// reads back to this value): kept beside a query API's pages in the download cache.
    public var descriptionJSON: [UInt8] {
        var members: [JSONMember] = []
        func add(_ key: String, _ value: String?) { if let value { members.append(JSONMember(key: key, value: .string(value))) } }
        add("id", id)
        add("name", name)
        if let rowsUpdatedAt { members.append(JSONMember(key: "rowsUpdatedAt", value: .number(String(rowsUpdatedAt)))) }
        if let newBackend { members.append(JSONMember(key: "newBackend", value: .bool(newBackend))) }
        add("viewType", viewType)
        add("displayType", displayType)
        add("assetType", assetType)
        add("description", dictionary.description)
        add("attribution", dictionary.attribution)
        add("attributionLink", dictionary.attributionLink)
        if let license = dictionary.license { members.append(JSONMember(key: "license", value: .object([JSONMember(key: "name", value: .string(license))]))) }
        add("licenseId", dictionary.licenseID)
        add("category", dictionary.category)
        if !dictionary.tags.isEmpty { members.append(JSONMember(key: "tags", value: .array(dictionary.tags.map(JSONValue.string)))) }
        if !customFields.isEmpty {
            var groups: [JSONMember] = []
            for field in customFields {
                let member = JSONMember(key: field.field, value: .string(field.value))
                if let index = groups.firstIndex(where: { $0.key == field.group }), case .object(let fields) = groups[index].value {
                    groups[index] = JSONMember(key: field.group, value: .object(fields + [member]))
                } else {
                    groups.append(JSONMember(key: field.group, value: .object([member])))
                }
            }
            members.append(JSONMember(key: "metadata", value: .object([JSONMember(key: "custom_fields", value: .object(groups))])))
        }
        let columns = (try? JSONValueParser.parse(Array(columnsJSON.utf8))) ?? .array([])
        members.append(JSONMember(key: "columns", value: columns))
        return Array(JSONValue.object(members).jsonText.utf8)
    }
}
