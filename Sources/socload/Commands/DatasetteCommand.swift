import Foundation
import SocloadCore

/// `socload datasette`: Datasette metadata for a SQLite database socload filled, so that the
/// stable Datasette (0.65) shows it as socload means it: socload's bookkeeping tables
/// (`_socload_*`, a GeoPackage's `gpkg_*` and `rtree_*`) hidden, each lookup's foreign key
/// labelled with the lookup's value (its `label_column`, which Datasette cannot guess once the
/// lookup keeps counts), and each table's title, description, source and license from the
/// portal.
///
///     socload datasette --db open.sqlite > metadata.json
///     datasette open.sqlite -m metadata.json
struct DatasetteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "datasette",
        abstract: "Print Datasette metadata for the database (hidden bookkeeping, lookup labels, titles and sources).",
        discussion: """
            Write it to a file and start Datasette with it: socload datasette > metadata.json, then
            datasette socload.sqlite -m metadata.json. socload's own tables are hidden, each
            lookup's foreign key shows the lookup's value (label_column), and each loaded table
            has the portal's title, description, page and license. Print it again after a load
            that adds tables or lookups.
            """)

    @OptionGroup var database = DatabaseOptions()

    func run(context: CommandContext) throws {
        if !database.capabilities(context).isOneFile {
            throw UsageError("Datasette reads SQLite files: --db names a PostgreSQL database", command: Self.spec)
        }
        let loaded = try database.openLoaded(context, command: Self.spec)
        var tables: [String: [String: Any]] = [:]
        let hidden = SQLFragment(sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND (name LIKE '\\_socload\\_%' ESCAPE '\\' "
                                 + "OR name LIKE 'gpkg\\_%' ESCAPE '\\' OR name LIKE 'rtree\\_%' ESCAPE '\\' OR name = 'sqlite_sequence')")
        try loaded.read(hidden, columns: { _ in }) { row in
            if case .text(let name)? = row.first { tables[name] = ["hidden": true] }
        }
        for table in try loaded.tables() {
            guard let entry = try loaded.entry(for: table.name), entry.tableName == table.name else { continue }
            var described: [String: Any] = [:]
            let dictionary = entry.dictionary
            if let title = dictionary?.name ?? entry.name { described["title"] = title }
            if let text = dictionary?.description { described["description"] = text }
            if let page = dictionary?.pageURL ?? Self.page(of: entry) { described["source_url"] = page }
            if let source = dictionary?.attribution { described["source"] = source }
            if let license = dictionary?.license ?? dictionary?.licenseID { described["license"] = license }
            if !described.isEmpty { tables[table.name, default: [:]].merge(described) { _, new in new } }
            for lookup in entry.plan?.mainTable.lookups ?? [] {
                guard let value = lookup.columns.first?.name else { continue }
                tables[lookup.table, default: [:]]["label_column"] = value
            }
        }
        let name = ((database.path(context) as NSString).lastPathComponent as NSString).deletingPathExtension
        let metadata: [String: Any] = ["databases": [name: ["tables": tables]]]
        let data = try JSONSerialization.data(withJSONObject: metadata, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        context.output.write(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// A portal dataset's page when the dictionary has none (`https://DOMAIN/d/ID`).
    private static func page(of entry: CatalogEntry) -> String? {
        guard let domain = entry.domain, let id = entry.datasetID, !domain.isEmpty else { return nil }
        return (domain.contains("://") ? domain : "https://" + domain) + "/d/" + id
    }
}
