import Foundation
import SocloadCore
import SocloadProject

/// A project's dataset names in the read commands: `socload info hiv` in a project whose entry
/// `{"name": "hiv", "table": "hiv_ranks", ...}` reads `hiv_ranks`, as `refresh hiv`, `status` and
/// `verify --locked` call it. The project's lock file records which table each name loaded.
extension DatabaseOptions {
    /// `name` when it names a table or a dataset in `loaded`; else the table the project's
    /// dataset of that name last loaded (per its lock file), if there is one.
    func loadedName(_ name: String, in loaded: any LoadedDatabase) throws -> String {
        // The lock file first: outside a project (most reads) nothing of the database is asked.
        guard let table = projectTable(named: name), table != name else { return name }
        if try loaded.tableExists(name) || loaded.entry(for: name, withDescription: false) != nil { return name }
        return table
    }

    /// The table the project's dataset `name` loaded at its last refresh (nil: no project here,
    /// or no dataset of that name in its lock file).
    private func projectTable(named name: String) -> String? {
        let file = project ?? ProjectDatabase.defaultFile
        guard FileManager.default.fileExists(atPath: file),
              let lock = try? SocloadLockFile.read(SocloadLockFile.path(forProject: file)) else { return nil }
        return lock.datasets[name]?.table
    }
}
