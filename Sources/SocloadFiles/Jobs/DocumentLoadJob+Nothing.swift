import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

extension DocumentLoadJob {
    /// An append or upsert of a document with no record (an empty array, a CSV of a header alone)
    /// into a table socload loaded: nothing to add, the table as it was, `0 records`. Into any
    /// other table, `otherwise` (there are no columns to make one of).
    func mergeNothing(_ request: DocumentLoadRequest, into table: String, start: UInt64, otherwise: any Error) throws -> LoadSummary {
        try context.destination.performLoad { transaction in
            guard let entry = try transaction.catalog.entry(for: table, withDescription: false),
                  entry.tableName.lowercased() == table.lowercased() else { throw otherwise }
            var summary = LoadSummary(tableName: entry.tableName, rowCount: entry.rowCount,
                                      columnCount: entry.plan?.mainTable.storedColumns.count ?? 0, source: request.displaySource,
                                      elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, catalogEntry: entry)
            summary.merged = MergedRows(mode: request.mode, records: 0, inserted: 0)
            return summary
        }
    }
}
