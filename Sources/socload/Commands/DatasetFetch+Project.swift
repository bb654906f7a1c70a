import SocloadProject
import SocloadSocrata

extension DatasetFetch {
    /// A project dataset's fetch (`refresh`, `status`, `verify --locked`): its spec, and the
    /// database and network its project and connection name, read as `fetch`'s own options so
    /// that they mean what they mean on the command line. `force` and `cache`: the command's.
    init(project: Project, dataset: Project.Dataset, quiet: Bool = false, force: Bool = false, cache: String? = nil,
         context: CommandContext) throws {
        let connection = dataset.connection
        var arguments = Self.databaseArguments(project, schema: connection.schema)
        if let token = connection.appToken { arguments.append("--app-token=" + token) }
        if let retries = connection.retries { arguments.append("--retries=\(retries)") }
        if connection.geoPackage { arguments.append("--geopackage") }
        let options = try FetchCommand.parsed(arguments + ["--", dataset.spec.sourceText])
        var spec = dataset.spec
        spec.force = spec.force || force
        if let cache { spec.cache = cache }
        self.init(spec: spec, database: options.database, network: options.network, geoPackage: connection.geoPackage,
                  quiet: quiet, datasetsDirectories: Self.datasetsDirectories(nil, context.environment),
                  catalogDataUpdatedAt: dataset.catalogDataUpdatedAt)
    }

    /// The project's database (and an entry's PostgreSQL schema) as `fetch`'s options.
    static func databaseArguments(_ project: Project, schema: String?) -> [String] {
        (project.database.map { ["--db=" + $0] } ?? []) + (schema.map { ["--schema=" + $0] } ?? [])
    }
}
