import Foundation
import SocloadProject
import SocloadSocrata

extension DatasetFetch {
    /// `Refreshed t: 12 added, 3 changed, 5 removed, 9,980 unchanged`, when the rows were counted.
    static func reportRowChanges(_ summary: LoadSummary, session: LoadSetup.Session) {
        guard let changes = summary.rowChanges else { return }
        session.inform("Refreshed \(TerminalText.escaped(summary.tableName)): \(changes.summary)")
    }

    /// One line per column that had cells not of its type, under the summary.
    static func reportInvalidCells(_ cells: [InvalidCells]) {
        for column in cells {
            StandardError.line(SocloadTool.oneLine(column.summary))
        }
    }

    /// `--datasets`, else `$SOCLOAD_DATASETS`, else `./Datasets` and the copy installed beside the binary.
    static func datasetsDirectories(_ option: String?, _ environment: [String: String]) -> [String] {
        if let directory = option ?? environment["SOCLOAD_DATASETS"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return [directory]
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/socload/Datasets").path
        return ["Datasets", installed]
    }
}

extension DatasetFetch {
    /// A project dataset's fetch (`refresh`, `status`, `verify --locked`): its spec, and the
    /// database and network its project and connection name, read as `fetch`'s own options so
    /// that they mean what they mean on the command line. `force` and `cache`: the command's.
    init(project: Project, dataset: Project.Dataset, quiet: Bool = false, force: Bool = false, cache: String? = nil,
         context: CommandContext) throws {
        let connection = dataset.connection
        var arguments = project.database.map { ["--db=" + $0] } ?? []
        if let schema = connection.schema { arguments.append("--schema=" + schema) }
        if let token = connection.appToken { arguments.append("--app-token=" + token) }
        if let retries = connection.retries { arguments.append("--retries=\(retries)") }
        if connection.geoPackage { arguments.append("--geopackage") }
        let options = try FetchCommand.parsed(arguments + ["--", dataset.spec.sourceText])
        var spec = dataset.spec
        spec.force = spec.force || force
        if let cache { spec.cache = cache }
        self.init(spec: spec, database: options.database, network: options.network, geoPackage: connection.geoPackage,
                  quiet: quiet, datasetsDirectories: Self.datasetsDirectories(nil, context.environment))
    }
}
