import Foundation
import SocloadSocrata
import SocloadSQLite

/// A failed load (fetch, load, sync, extract): the cause, and the reassurance that nothing was changed.
struct LoadFailure: Error, CustomStringConvertible {
    let underlying: any Error
    let table: String?
    /// The database the fetch would have created, when there was none before.
    var newDatabase: String? = nil

    var description: String {
        let (message, _) = SocloadTool.describe(underlying)
        if case LoadError.reservedTableName = underlying { return message }
        if underlying is StagedDatabaseError { return message }
        // Another dataset of the same command may have created it meanwhile (`fetch A B C`).
        if let newDatabase, !FileManager.default.fileExists(atPath: newDatabase) { return message + "; \(newDatabase) was not created" }
        let unchanged = table.map { "; \($0) was not changed" } ?? "; the database was not changed"
        return message + unchanged
    }
}
