import Foundation
import SocloadCore
import SocloadProject

/// `socload report`: what a mirror's refreshes did, per dataset, as a page people read.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "report",
        abstract: "Write a report of the mirror: each dataset's refreshes, changes and watch, as HTML, Markdown, JSON or Atom.",
        discussion: """
            For every dataset socload loaded into the database (of the project in this folder, or
            --db): its watch (fresh, stale, gone, moved, unknown, as the last refresh judged it;
            see socload status), its last refreshes with the rows each added, changed and removed
            and the rows after it (drawn as a small plot), its schema changes, whether it still
            holds to the portal's statistics (verify), and a link to its page on the portal. Made
            from the database alone: nothing is asked of a portal.
            --format html (the default) is one self-contained page (no script, nothing fetched);
            markdown the same facts for a pull request or an email; json the facts for a program;
            atom a feed with one entry per refresh that changed rows or columns, and one when a
            dataset went stale, gone or moved, newest first.
            --out FILE writes the file whole or not at all (a temporary file renamed into place).
            """)

    @Arguments(name: "name", help: "Only these datasets: a project entry's \"name\", a table, or a dataset id.", minimum: 0)
    var names: [String]
    @OptionGroup var database = DatabaseOptions()
    @Option(valueName: "format", help: "html, markdown, json or atom.", default: "html") var format: String?
    @Option(valueName: "file", help: "Write the report to FILE instead of standard output.") var out: String?
    @Option(valueName: "n", help: "The last N refreshes of each dataset.") var refreshes: Int = 30
    @Option(valueName: "text", help: "The report's title.", default: "the project file's folder, else the database") var title: String?
    @Option(valueName: "url", help: "The feed's own address (--format atom: its rel=self link).") var feedUrl: String?

    static let formats = ["html", "markdown", "json", "atom"]

    func validate() throws {
        if let format, !Self.formats.contains(format) {
            throw UsageError("--format takes html, markdown, json or atom, not '\(TerminalText.escaped(format))'", command: Self.spec)
        }
        if refreshes < 1 { throw UsageError("--refreshes needs a number above 0", command: Self.spec) }
    }

    func run(context: CommandContext) throws {
        let loaded = try database.openLoaded(context, command: Self.spec)
        let project = try projectFile().map(Project.load)
        let report = try ReportBuilder(database: loaded, project: project, keep: refreshes)
            .report(title: title ?? defaultTitle(loaded), names: names)
        let text: String
        switch format ?? "html" {
        case "markdown": text = report.markdown()
        case "json": text = try report.jsonText()
        case "atom": text = report.atom(selfURL: feedUrl)
        default: text = report.html()
        }
        guard let out else {
            context.output.write(text)
            return
        }
        try Self.writeWhole(text, to: out)
    }

    /// The project file in play: `--project`, else `socload.json` here when it exists.
    private func projectFile() -> String? {
        if let project = database.project { return project }
        return database.db == nil && FileManager.default.fileExists(atPath: ProjectDatabase.defaultFile) ? ProjectDatabase.defaultFile : nil
    }

    private func defaultTitle(_ database: any LoadedDatabase) -> String {
        if let file = projectFile() {
            let folder = ((file as NSString).deletingLastPathComponent as NSString).lastPathComponent
            let name = folder.isEmpty ? (FileManager.default.currentDirectoryPath as NSString).lastPathComponent : folder
            return "socload report: \(name)"
        }
        return "socload report: \(ReportBuilder.name(of: database))"
    }

    /// `text` in `path`, whole: written beside it under a temporary name, then renamed.
    static func writeWhole(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.\((path as NSString).lastPathComponent).socload-\(getpid()).part"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))", exitCode: .ioError)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandFailure("cannot write \(path): \(reason)", exitCode: .ioError)
        }
    }
}
