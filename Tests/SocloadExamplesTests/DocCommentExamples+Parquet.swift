import Foundation
import SocloadCore
import SocloadDatabase
import SocloadParquet
import SocloadSocrata
import SocloadSQLite
import XCTest

/// The examples of the Parquet export's doc comments (issue 48).
extension DocCommentExamples {
    /// `ParquetFileWriter`: rows into a file, the footer last.
    func testParquetFileWriterExample() throws {
        let writer = try ParquetFileWriter(path: "/tmp/out.parquet",
                                           fields: [.column("name", .byteArray, .string), .column("n", .int64, .int64)])
        try writer.append([.string("a"), .int64(1)])
        try writer.finish()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: "/tmp/out.parquet"))
        XCTAssertEqual(Array(bytes.prefix(4)) + Array(bytes.suffix(4)), Array("PAR1PAR1".utf8))
        XCTAssertEqual(writer.rowCount, 1)
    }

    /// `ParquetExport` and `ColumnDictionary`: a loaded table as a file, its columns described.
    func testParquetExportExample() throws {
        let queue = try DatabaseQueue(path: "socload.sqlite")
        _ = try DatasetLoader(destination: SQLiteDestination(queue: queue)).load(LoadSpec(dataset: "n5m4-mism"))
        let database = try SQLiteLoadedDatabase(queue: queue)
        let export = ParquetExport(database: database, table: "n5m4_mism", qualifiedTable: "\"n5m4_mism\"")
        let summary = try export.write(to: "n5m4_mism.parquet")
        print(summary.rowCount)
        XCTAssertEqual(summary.rowCount, 300)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "datapackage.json"))

        let entry = try XCTUnwrap(try database.entry(for: "n5m4_mism", withDescription: false))
        let dictionary = ColumnDictionary(entry: entry)
        dictionary?.columns.first?.description   // the portal's description of the first column
        XCTAssertEqual(dictionary?.column(named: "NAME")?.displayName, "Name")
        XCTAssertEqual(dictionary?.columns.first?.field, ":id")
    }
}
