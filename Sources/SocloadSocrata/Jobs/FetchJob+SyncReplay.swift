import Foundation
import SocloadCore
import SocloadEngine

/// Restoring a version the download cache keeps as the version a sync started from plus the
/// syncs' pages (`DownloadCache.keepSync`): the base is read as any kept version is, and the
/// syncs are laid over its rows by the table's key (`KeyedReplay`).
extension FetchJob {
    /// The syncs in `folders`, in order, read into a replay: each one's rows converted by `plan`,
    /// as the base's are, then the keys its deletes listed, when it deleted.
    func syncReplay(_ folders: [String], plan: LoadPlan) throws -> KeyedReplay {
        let table = plan.mainTable
        let keyColumns = table.primaryKey.compactMap { name in table.columns.firstIndex { $0.name == name } }
        guard !keyColumns.isEmpty, keyColumns.count == table.primaryKey.count else {
            throw LoadError.unsupported("\(table.name) has no key to replay the syncs kept with the version by")
        }
        let replay = KeyedReplay(keyColumns: keyColumns)
        var keyPlan = plan
        keyPlan.tables = [PlanTable(name: table.name, columns: keyColumns.map { table.columns[$0] }, primaryKey: table.primaryKey)]
        let scratch = DatasetLoader.LoadState()
        for (index, folder) in folders.enumerated() {
            let stage = index + 1
            let rows = ObjectRowSink(plan: plan, strict: false, storable: loader.destination.storableValues) { batch in
                replay.upsert(batch, stage: stage)
            }
            _ = try readKeptPages(folder, sink: rows, state: scratch)
            let keys = (folder as NSString).appendingPathComponent(DownloadCache.syncKeysName)
            guard FileManager.default.fileExists(atPath: keys) else { continue }
            replay.beginListing(stage: stage)
            let listed = ObjectRowSink(plan: keyPlan, strict: false, storable: loader.destination.storableValues) { batch in
                replay.list(batch, stage: stage)
            }
            _ = try readKeptPages(keys, sink: listed, state: scratch)
        }
        return replay
    }
}
