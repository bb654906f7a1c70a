import SocloadCore
import SocloadPlatforms
import SocloadSocrata

/// `socload search WORDS`: datasets of a portal, or of every public portal, from the catalog.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "search",
        abstract: "Find datasets on a portal, or on every public portal, through the Socrata catalog.",
        discussion: """
            Asks the Discovery API (/api/catalog/v1) and prints each result's id, name, type, when
            its data was last updated, its column count (without the portal's computed region
            columns), its portal and its page. The ids paste into `socload fetch` and socload.json.
            Without --domain every public portal the catalog knows is searched. The catalog gives
            no row counts: --rows adds the count each portal's own statistics state, at one
            description request a result (empty when the portal states none).
            With --platform ckan, arcgis or ods, --domain names a portal of that platform and its own
            catalog is asked: CKAN's package_search, an ArcGIS Hub site's data.json, OpenDataSoft's
            Explore API catalog; each page is a URL `socload fetch` takes.
            """)

    @Arguments(name: "words", help: "What to look for (in names, descriptions, columns).", minimum: 0)
    var words: [String]
    @Option(valueName: "host", help: "Only this portal's datasets.") var domain: String?
    @Option(valueName: "name", help: "The portal's platform: socrata, ckan, arcgis (a Hub site) or ods.", default: "socrata")
    var platform: DataPlatform?
    @Option(valueName: "category", help: "Only this category (the portal's own with --domain).") var category: String?
    @Option(valueName: "n", help: "At most N results.") var limit: Int = 10
    @Option(valueName: "n", help: "Skip the first N results (the next page).") var offset: Int = 0
    @Option(valueName: "url", help: "The catalog to ask.", default: "$SOCLOAD_CATALOG, else \(CatalogSearch.defaultCatalog)")
    var catalog: String?
    @Flag(help: "Add each result's row count, from its portal's description (one request a result).") var rows: Bool
    @OptionGroup var network = NetworkOptions()
    @OptionGroup var output = FormatOptions()

    func validate() throws {
        if limit < 1 || limit > 10_000 {
            throw UsageError("--limit takes 1 to 10000 results, not \(limit)", command: Self.spec)
        }
        if let platform, platform != .socrata {
            if domain == nil { throw UsageError("--platform \(platform.rawValue) searches one portal: give its --domain", command: Self.spec) }
            if catalog != nil { throw UsageError("--catalog is Socrata's Discovery API; --platform \(platform.rawValue) asks the portal itself",
                                                 command: Self.spec) }
        }
        if words.isEmpty, domain == nil, category == nil {
            throw UsageError("say what to look for: words, --domain or --category", command: Self.spec)
        }
    }

    func run(context: CommandContext) throws {
        if let platform, platform != .socrata, let domain { return try runPlatform(platform, domain: domain, context: context) }
        let search = CatalogSearch(words: words.joined(separator: " "), domain: domain, category: category,
                                   limit: limit, offset: offset)
        let host = catalog ?? context.environment["SOCLOAD_CATALOG"].flatMap { $0.isEmpty ? nil : $0 } ?? CatalogSearch.defaultCatalog
        let http = try LoadSetup.httpOptions(appToken: network.appToken, context)
        let retry = LoadSetup.retryPolicy(retries: network.retries, context)
        let answer = try search.run(catalog: host, http: http, retry: retry)
        let writer = output.writer(context)
        writer.begin(columns: ["id", "name", "type", "data_updated_at", "columns"] + (rows ? ["rows"] : []) + ["domain", "page"])
        for result in answer.results {
            var counted: [DatabaseValue] = []
            if rows {
                // A result whose description cannot be read has no count; the others still print.
                let count = (try? result.statedRowCount(http: http, retry: retry)) ?? nil
                counted = [count.map { .integer(Int64($0)) } ?? .null]
            }
            writer.write([.text(result.id), .text(result.name), .text(result.type),
                          result.dataUpdatedAt.map(DatabaseValue.text) ?? .null, .integer(Int64(result.columnCount))] + counted
                         + [result.domain.map(DatabaseValue.text) ?? .null, result.page.map(DatabaseValue.text) ?? .null])
        }
        writer.finish()
        context.output.flush()
        if let total = answer.total, total > answer.results.count + offset, StandardError.isTerminal {
            StandardError.line("\(answer.results.count) of \(NumberText.grouped(total)) results (--limit and --offset page on)")
        }
    }

    /// A CKAN, ArcGIS Hub or OpenDataSoft portal's own catalog, in the same columns.
    private func runPlatform(_ platform: DataPlatform, domain: String, context: CommandContext) throws {
        var search = PlatformCatalogSearch(platform: platform, words: words.joined(separator: " "), domain: domain)
        search.category = category
        search.limit = limit
        search.offset = offset
        let answer = try search.run(http: try LoadSetup.httpOptions(appToken: network.appToken, context),
                                    retry: LoadSetup.retryPolicy(retries: network.retries, context))
        let writer = output.writer(context)
        writer.begin(columns: ["id", "name", "type", "data_updated_at", "columns"] + (rows ? ["rows"] : []) + ["domain", "page"])
        for result in answer.results {
            let counted: [DatabaseValue] = rows ? [result.rowCount.map { .integer(Int64($0)) } ?? .null] : []
            writer.write([.text(result.id), .text(result.name), .text("dataset"), result.dataUpdatedAt.map(DatabaseValue.text) ?? .null,
                          result.columnCount.map { .integer(Int64($0)) } ?? .null] + counted + [.text(domain), .text(result.page)])
        }
        writer.finish()
        context.output.flush()
        if let total = answer.total, total > answer.results.count + offset, StandardError.isTerminal {
            StandardError.line("\(answer.results.count) of \(NumberText.grouped(total)) results (--limit and --offset page on)")
        }
    }
}
