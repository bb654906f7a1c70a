import SocloadCore

/// The data dictionary a Parquet export carries in its key-value metadata under `socload`: the
/// dataset's facts as the portal gave them and each column's type, field, display name and
/// description, so the file explains itself away from the database.
enum ParquetDictionary {
    static func json(entry: CatalogEntry?, dictionary: ColumnDictionary?, columns: [String]) -> String {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var dataset: [JSONMember] = []
        if let entry {
            let facts = entry.dictionary
            dataset = [
                JSONMember(key: "table", value: .string(entry.tableName)), JSONMember(key: "id", value: text(entry.datasetID)),
                JSONMember(key: "name", value: text(facts?.name ?? entry.name)),
                JSONMember(key: "description", value: text(facts?.description ?? entry.datasetDescription)),
                JSONMember(key: "attribution", value: text(facts?.attribution)),
                JSONMember(key: "attributionLink", value: text(facts?.attributionLink)),
                JSONMember(key: "license", value: text(facts?.license ?? facts?.licenseID)),
                JSONMember(key: "category", value: text(facts?.category)),
                JSONMember(key: "tags", value: .array((facts?.tags ?? []).map(JSONValue.string))),
                JSONMember(key: "page", value: text(facts?.pageURL)),
                JSONMember(key: "source", value: .string(CredentialRedaction.url(entry.sourceURL))),
                JSONMember(key: "rowsUpdatedAt", value: text(entry.rowsUpdatedAt)),
                JSONMember(key: "fetchedAt", value: .string(entry.fetchedAt)),
            ]
        }
        let described = columns.map { name -> JSONValue in
            let column = dictionary?.column(named: name)
            return .object([
                JSONMember(key: "name", value: .string(name)), JSONMember(key: "type", value: text(column?.type.rawValue)),
                JSONMember(key: "field", value: text(column?.field)), JSONMember(key: "displayName", value: text(column?.displayName)),
                JSONMember(key: "description", value: text(column?.description)),
            ])
        }
        return JSONValue.object([JSONMember(key: "dataset", value: .object(dataset)),
                                 JSONMember(key: "columns", value: .array(described))]).jsonText
    }
}
