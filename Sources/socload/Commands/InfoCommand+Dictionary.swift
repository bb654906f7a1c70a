import SocloadCore

/// `info TABLE --dictionary`: what the portal says about the dataset and each column.
extension InfoCommand {
    /// The dataset's facts as `info` rows (only those the portal gave).
    static func dictionaryFacts(_ dictionary: DatasetDictionary?) -> [(String, DatabaseValue)] {
        guard let dictionary else { return [] }
        let facts: [(String, String?)] = [
            ("description", dictionary.description), ("attribution", dictionary.attribution),
            ("attribution_link", dictionary.attributionLink), ("license", dictionary.license ?? dictionary.licenseID),
            ("category", dictionary.category), ("tags", dictionary.tags.isEmpty ? nil : dictionary.tags.joined(separator: ", ")),
            ("update_frequency", dictionary.updateFrequency), ("page", dictionary.pageURL),
        ]
        return facts.compactMap { name, value in value.map { (name, .text($0)) } }
    }

    /// One row per column: its name, logical type, field, the portal's display name, type,
    /// description and format; in Markdown, the dataset's facts above the table.
    func writeDictionary(of entry: CatalogEntry, markdown: Bool, context: CommandContext, to writer: any ResultWriter) throws {
        guard let plan = entry.plan else {
            throw CommandFailure("\(entry.tableName) was loaded by an older socload: no plan to describe its columns",
                                 exitCode: .noInput)
        }
        if markdown {
            let dictionary = entry.dictionary
            var text = "# " + MarkdownWriter.cell(dictionary?.name ?? entry.name ?? entry.tableName) + "\n\n"
            if let description = dictionary?.description { text += description.replacingOccurrences(of: "\r", with: "") + "\n\n" }
            text += "- Table: `\(entry.tableName.replacingOccurrences(of: "`", with: "'"))`, \(NumberText.grouped(entry.rowCount)) row\(entry.rowCount == 1 ? "" : "s"), fetched \(entry.fetchedAt)\n"
            for (name, value) in Self.dictionaryFacts(dictionary) where name != "description" {
                if case .text(let fact) = value { text += "- \(name.replacingOccurrences(of: "_", with: " ").capitalized): \(MarkdownWriter.cell(fact))\n" }
            }
            context.output.write(text + "\n")
        }
        let described = ColumnDictionary.portalColumns(of: entry)
        writer.begin(columns: ["column", "type", "field", "display_name", "socrata_type", "description", "format"])
        if !markdown {
            // The dataset's own row first (type `dataset`), so every format carries the facts
            // Markdown shows above its table.
            let dictionary = entry.dictionary
            let facts = Self.dictionaryFacts(dictionary).compactMap { name, value -> String? in
                guard name != "description", case .text(let fact) = value else { return nil }
                return "\(name)=\(fact)"
            }
            writer.write([.text(entry.tableName), .text("dataset"), entry.datasetID.map { .text($0) } ?? .null,
                          (dictionary?.name ?? entry.name).map { .text($0) } ?? .null, .null,
                          dictionary?.description.map { .text($0) } ?? .null,
                          facts.isEmpty ? .null : .text(facts.joined(separator: "; "))])
        }
        for column in plan.mainTable.columns {
            let field = ColumnDictionary.field(of: column, in: plan)
            let portal = field.flatMap { described[$0] }
            let format = portal?.format.map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            writer.write([.text(column.name), .text(column.type.rawValue), field.map { .text($0) } ?? .null,
                          portal?.name.map { .text($0) } ?? .null, portal?.dataTypeName.map { .text($0) } ?? .null,
                          portal?.description.map { .text($0) } ?? .null, format.map { .text($0) } ?? .null])
        }
        writer.finish()
    }

    /// `--refreshes`: the table's refresh log.
    func writeRefreshes(of table: String, database: any LoadedDatabase, to writer: any ResultWriter) throws {
        writer.begin(columns: ["refreshed_at", "kind", "source", "rows_updated_at", "etag", "rows", "schema_changes",
                               "inserted", "updated", "deleted", "unchanged", "reissued", "seconds", "api", "notices"])
        func integer(_ value: Int?) -> DatabaseValue { value.map { .integer(Int64($0)) } ?? .null }
        for record in try database.refreshes(of: table) {
            writer.write([.text(record.refreshedAt), .text(record.kind), .text(CredentialRedaction.url(record.source)),
                          record.rowsUpdatedAt.map { .text($0) } ?? .null, record.etag.map { .text($0) } ?? .null,
                          integer(record.rowCount), integer(record.schemaChanges), integer(record.inserted),
                          integer(record.updated), integer(record.deleted), integer(record.unchanged), integer(record.reissued),
                          .real((record.seconds * 1000).rounded() / 1000), record.api.map { .text($0) } ?? .null,
                          record.notices.isEmpty ? .null : .text(record.notices.joined(separator: "\n"))])
        }
        writer.finish()
    }
}
