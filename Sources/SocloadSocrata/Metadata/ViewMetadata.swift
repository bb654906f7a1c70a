import SocloadCore
import Foundation

/// The dataset description a load needs: `meta.view` of rows.json, or `/api/views/ID.json`.
public struct ViewMetadata: Codable, Sendable, Equatable {
    /// The 4x4 id, such as `n5m4-mism`.
    public var id: String?
    public var name: String?
    /// When the rows last changed, in epoch seconds.
    public var rowsUpdatedAt: Int?
    public var newBackend: Bool?
    public var viewType: String?
    public var displayType: String?
    public var assetType: String?
    public var columns: [ColumnMetadata]
    /// What the portal says about the dataset (description, attribution, license, category, tags).
    public var dictionary = DatasetDictionary()
    /// The description's custom fields (`metadata.custom_fields`), text fields only, sorted by
    /// group and name: where portals state how often the dataset is updated, among other things.
    public var customFields: [CustomField] = []

    public init(id: String? = nil, name: String? = nil, rowsUpdatedAt: Int? = nil, newBackend: Bool? = nil,
                viewType: String? = nil, displayType: String? = nil, columns: [ColumnMetadata]) {
        self.id = id
        self.name = name
        self.rowsUpdatedAt = rowsUpdatedAt
        self.newBackend = newBackend
        self.viewType = viewType
        self.displayType = displayType
        self.columns = columns
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try? container.decodeIfPresent(String.self, forKey: .id)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
        rowsUpdatedAt = try? container.decodeIfPresent(Int.self, forKey: .rowsUpdatedAt)
        newBackend = try? container.decodeIfPresent(Bool.self, forKey: .newBackend)
        viewType = try? container.decodeIfPresent(String.self, forKey: .viewType)
        displayType = try? container.decodeIfPresent(String.self, forKey: .displayType)
        assetType = try? container.decodeIfPresent(String.self, forKey: .assetType)
        let facts = try decoder.container(keyedBy: DictionaryKeys.self)
        func text(_ key: DictionaryKeys) -> String? {
            (try? facts.decodeIfPresent(String.self, forKey: key))?.flatMap { $0.isEmpty ? nil : $0 }
        }
        struct License: Decodable { var name: String? }
        dictionary = DatasetDictionary(
            name: name, description: text(.description), attribution: text(.attribution), attributionLink: text(.attributionLink),
            license: (try? facts.decodeIfPresent(License.self, forKey: .license))?.flatMap(\.name), licenseID: text(.licenseId),
            category: text(.category), tags: ((try? facts.decodeIfPresent([String].self, forKey: .tags)) ?? nil) ?? [])
        customFields = (try? facts.decodeIfPresent(Metadata.self, forKey: .metadata))??.customFields ?? []
        dictionary.updateFrequency = StatedUpdateFrequency.find(customFields: customFields, description: dictionary.description)
        // More columns than any database holds is refused before one is built.
        var list = try container.nestedUnkeyedContainer(forKey: .columns)
        if let count = list.count, count > Self.mostColumns {
            throw DecodingError.dataCorruptedError(in: list, debugDescription: "the metadata describes \(count) columns, more than "
                                                   + "the \(Self.mostColumns) any database socload writes holds")
        }
        var decoded: [ColumnMetadata] = []
        while !list.isAtEnd { decoded.append(try list.decode(ColumnMetadata.self)) }
        columns = decoded
    }

    private enum DictionaryKeys: String, CodingKey {
        case description, attribution, attributionLink, license, licenseId, category, tags, metadata
    }

    /// `metadata`: of it, the custom fields (groups of named text fields; a field that is not
    /// text is left out).
    private struct Metadata: Decodable {
        var customFields: [CustomField] = []

        struct Name: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let metadata = try decoder.container(keyedBy: Name.self)
            guard let groups = try? metadata.nestedContainer(keyedBy: Name.self, forKey: Name(stringValue: "custom_fields")) else { return }
            for group in groups.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                guard let fields = try? groups.nestedContainer(keyedBy: Name.self, forKey: group) else { continue }
                for field in fields.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                    if let value = try? fields.decode(String.self, forKey: field) {
                        customFields.append(CustomField(group: group.stringValue, field: field.stringValue, value: value))
                    }
                }
            }
        }
    }

    /// SQLite's largest column limit (`SQLITE_MAX_COLUMN`); PostgreSQL holds 1,600.
    public static let mostColumns = 32_767

    /// The number of rows the portal's statistics describe (set plus empty cells of a column),
    /// when a column states both.
    public var statedRowCount: Int? {
        for column in columns where !column.isSystemColumn {
            if let statistics = column.cachedContents, let set = statistics.nonNull, let empty = statistics.null {
                return set + empty
            }
        }
        return nil
    }

    /// The columns as compact JSON, for the catalog.
    public var columnsJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(columns)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// The dataset's dictionary as the catalog keeps it, with its page on `domain` when the id
    /// and the domain are known, and without its description (`CatalogEntry.datasetDescription`).
    public func dictionaryJSON(domain: String?) -> String {
        var dictionary = self.dictionary
        dictionary.description = nil
        if let domain, let id {
            dictionary.pageURL = (domain.contains("://") ? domain : "https://" + domain) + "/d/" + id
        }
        return LoadPlan.encode(dictionary)
    }
}
