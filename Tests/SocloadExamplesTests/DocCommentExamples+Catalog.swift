import Foundation
import SocloadCore
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import XCTest

/// The examples of the catalog's doc comments: the indexes its lookups go through, and a batch's
/// snapshot of it.
extension DocCommentExamples {
    /// `CatalogLookupIndexes`: made by a catalog's migration, so a lookup of one table reads no other.
    func testCatalogLookupIndexesExample() throws {
        for statement in CatalogLookupIndexes.createStatements(SQLiteDialect()) { _ = statement }
        let queue = try DatabaseQueue(path: "socload.sqlite")
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
        let indexes = try queue.read { db in try db.fetchAll(String.self, sql: "select name from pragma_index_list('_socload_datasets')") }
        XCTAssertTrue(Set(indexes).isSuperset(of: ["_socload_datasets_by_name", "_socload_datasets_by_dataset"]), "\(indexes)")
    }

    /// `CatalogSnapshot`: every entry read at once, looked up as one entry is.
    func testCatalogSnapshotExample() throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
        let entry = try XCTUnwrap(try SQLiteLoadedDatabase(queue: queue).catalogEntries().first)
        let snapshot = CatalogSnapshot([entry])
        _ = snapshot.entry(for: "n5m4_mism")
        XCTAssertEqual(snapshot.entry(for: "n5m4_mism"), entry)
        XCTAssertEqual(snapshot.entry(for: "N5M4_MISM"), entry, "names compare ignoring case last")
        XCTAssertEqual(snapshot.entry(for: "n5m4-mism"), entry, "a dataset id finds its table")
        XCTAssertNil(snapshot.entry(for: "other"))
    }
}
