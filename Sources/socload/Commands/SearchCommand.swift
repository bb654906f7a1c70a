import SocloadCore
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
            """)

    @Arguments(name: "words", help: "What to look for (in names, descriptions, columns).", minimum: 0)
    var words: [String]
    @Option(valueName: "host", help: "Only this portal's datasets.") var domain: String?
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
        if words.isEmpty, domain == nil, category == nil {
            throw UsageError("say what to look for: words, --domain or --category", command: Self.spec)
        }
    }

    func run(context: CommandContext) throws {
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
}
