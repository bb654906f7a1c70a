import Foundation
import SocloadCore

/// A spec is encoded and decoded in its entry form (`LoadSpec.init(entry:)`), so a spec an app
/// stores and a project file's entry are one format.
extension LoadSpec: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: EntryKey.self)
        let members = try container.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
            JSONMember(key: key.stringValue, value: try container.decode(EntryValue.self, forKey: key).value)
        }
        try self.init(entry: members)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: EntryKey.self)
        for member in entry {
            try container.encode(EntryValue(member.value), forKey: EntryKey(member.key))
        }
    }

    /// The spec as entry members: its source, then each option that is not the default.
    public var entry: [JSONMember] {
        var members: [JSONMember] = []
        func add(_ key: String, _ text: String?) { if let text { members.append(JSONMember(key: key, value: .string(text))) } }
        func add(_ key: String, _ number: Int?) { if let number { members.append(JSONMember(key: key, value: .number(String(number)))) } }
        func add(_ key: String, _ flag: Bool) { if flag { members.append(JSONMember(key: key, value: .bool(true))) } }
        func add(_ key: String, _ list: [String]) { if !list.isEmpty { members.append(JSONMember(key: key, value: .array(list.map { .string($0) }))) } }
        switch source {
        case .dataset(let text):
            add(DatasetReference.isDatasetID(text) ? "id" : text.contains("://") ? "url" : "file", text)
        case .document(let text): add("document", text)
        }
        add("table", tableName)
        if mode != .replace { add("mode", mode.rawValue) }
        add("incremental", incremental)
        add("incremental-above", incrementalAbove)
        add("domain", domain)
        add("datasets", datasetsDirectory)
        add("cache", cache)
        add("keep-versions", keepVersions)
        add("limit", limit)
        add("max-rows", maxRows)
        add("system-columns", includeSystemColumns)
        if api != .auto { add("api", api.rawValue) }
        add("platform", platform?.rawValue)
        add("where", query.where)
        add("select", query.select)
        add("order", query.order)
        if pageSize != LoadSpec.defaultPageSize { add("page-size", pageSize) }
        add("force", force)
        add("type", tableOptions.typeOverrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" })
        add("index", tableOptions.indexes.map { $0.joined(separator: ",") })
        add("fts", tableOptions.fullTextColumns?.joined(separator: ","))
        add("pk", tableOptions.primaryKey?.joined(separator: ","))
        add("extract", tableOptions.extractions.map(\.spec))
        if tableOptions.onSchemaChange != (mode == .replace ? .warn : .fail) { add("on-schema-change", tableOptions.onSchemaChange.rawValue) }
        add("keep-changes", tableOptions.keptChangeRefreshes)
        add("history", tableOptions.keepsHistory)
        add("geometry", tableOptions.geometryColumn)
        add("distribute-by", tableOptions.distributeBy)
        add("strict", tableOptions.strict)
        switch document.layout {
        case .detect: break
        case .lines: add("lines", true)
        case .root(let key): add("root", key)
        }
        if case .csv(let dialect) = document.format {
            add("csv", dialect.delimiter == nil)
            add("delimiter", dialect.delimiter.map { $0 == UInt8(ascii: "\t") ? "tab" : String(UnicodeScalar($0)) })
            if dialect.encoding != .utf8 { add("encoding", dialect.encoding.rawValue) }
            add("no-header", !dialect.hasHeader)
        }
        add("metadata", document.metadata)
        add("child-key", document.childKeys.sorted { $0.key < $1.key }.map {
            QuotedNameScanner.written($0.key) + ":" + QuotedNameScanner.written($0.value)
        })
        add("glue", document.glues.map(\.spec))
        add("flatten", document.flatten)
        return members
    }
}

/// A key of the entry form, whatever its name.
private struct EntryKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// A value of the entry form as JSON gives it: true or false, a number, a text, or a list.
private struct EntryValue: Codable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let number = try? container.decode(Int64.self) {
            value = .number(String(number))
        } else if let number = try? container.decode(Double.self) {
            value = .number(String(number))
        } else if let text = try? container.decode(String.self) {
            value = .string(text)
        } else if let list = try? container.decode([EntryValue].self) {
            value = .array(list.map(\.value))
        } else {
            value = .null
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .bool(let flag): try container.encode(flag)
        case .number(let text): try container.encode(Int64(text) ?? 0)
        case .string(let text): try container.encode(text)
        case .array(let list): try container.encode(list.map(EntryValue.init))
        default: try container.encodeNil()
        }
    }
}
