import Foundation
import SocloadCore
import SocloadProject
import SocloadSocrata

/// The database of the project a command runs in: the `"database"` of `--project FILE`, or of
/// `socload.json` in the working directory when there is one. Every command that opens a
/// database uses it when given neither `--db` nor `$SOCLOAD_DB`, so `query`, `select`, `info`,
/// ... read what `refresh` filled; on PostgreSQL, in the schema of its `defaults`. Only those keys
/// are read: the datasets are `refresh`'s.
enum ProjectDatabase {
    /// The project file a command looks at when `--project` is not given.
    static let defaultFile = "socload.json"

    /// The project's database (relative to the project file's folder), or nil when there is no
    /// project file (only `--project` must exist) or it names none.
    static func path(project: String?) throws -> String? {
        guard let members = try members(project: project),
              let database = members.last(where: { $0.key == "database" })?.value else { return nil }
        let file = project ?? defaultFile
        return Project.relativeToProject(try Project.text(database, path: file, place: nil, key: "database"), file)
    }

    /// The PostgreSQL schema the project loads into (`"defaults": {"schema": ...}`), so the read
    /// commands in its folder read where `refresh` wrote; nil when it names none.
    static func schema(project: String?) throws -> String? {
        guard let members = try members(project: project),
              case .object(let defaults)? = members.last(where: { $0.key == "defaults" })?.value,
              let schema = defaults.last(where: { $0.key == "schema" })?.value else { return nil }
        return try Project.text(schema, path: project ?? defaultFile, place: "defaults", key: "schema")
    }

    /// The project's download cache (`"cache"`, relative to the project file's folder, with its
    /// `"keep-versions"`); nil when it names none.
    static func cache(project: String?) throws -> DownloadCache? {
        guard let members = try members(project: project), let folder = members.last(where: { $0.key == "cache" })?.value else {
            return nil
        }
        let file = project ?? defaultFile
        let kept: Int? = try members.last(where: { $0.key == "keep-versions" }).map { member in
            guard case .number(let text) = member.value, let count = Int(text), count > 0 else {
                throw CommandFailure("\(file): \"keep-versions\" must be a whole number above 0", exitCode: .configuration)
            }
            return count
        }
        return DownloadCache(directory: Project.relativeToProject(try Project.text(folder, path: file, place: nil, key: "cache"), file),
                             keptVersions: kept)
    }

    /// The project file's top-level members; nil when there is no project file (only
    /// `--project` must exist).
    private static func members(project: String?) throws -> [JSONMember]? {
        let file = project ?? defaultFile
        guard let data = FileManager.default.contents(atPath: file) else {
            guard project != nil else { return nil }
            throw CommandFailure(FileManager.default.fileExists(atPath: file) ? "\(file) cannot be read"
                                 : "--project \(file): no such file", exitCode: .noInput)
        }
        return try Project.members(ofFile: file, hint: " (pass --db to name the database)")
    }

}
