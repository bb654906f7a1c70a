import Foundation
import SocloadCore

/// `socload.lock`, beside the project file (named after it): for each dataset of the project, what its last
/// successful refresh loaded: where from (the URL without credentials), the portal's version
/// stamps, the plan's schema hash, the row count and a hash of the rows that does not depend on
/// their order (`TableContentHash`). A refresh rewrites it (atomically: a new file renamed over
/// the old); a dataset that failed keeps what it had, one no longer in the project goes.
public struct SocloadLockFile: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        public var table: String
        public var datasetID: String?
        public var sourceURL: String
        public var rowsUpdatedAt: String?
        public var etag: String?
        public var lastModified: String?
        public var fetchedAt: String
        public var schemaHash: String
        public var rowCount: Int
        public var contentHash: String
        /// The project's search entry that found the dataset (`ProjectSearch`), when one did.
        public var search: String?

        enum CodingKeys: String, CodingKey {
            case table, etag, search
            case datasetID = "dataset_id", sourceURL = "source_url", rowsUpdatedAt = "rows_updated_at"
            case lastModified = "last_modified", fetchedAt = "fetched_at", schemaHash = "schema_hash"
            case rowCount = "row_count", contentHash = "content_hash"
        }
    }

    /// The format's version: a later socload that changes the file says so by a new number.
    public var version = 1
    public var datasets: [String: Entry] = [:]

    public init() {}

    /// Beside the project file, named after it: `socload.json` → `socload.lock`, `city.json` →
    /// `city.lock` (two projects in one folder keep two locks).
    public static func path(forProject project: String) -> String {
        let name = project.hasSuffix(".json") ? String(project.dropLast(5)) : project
        return name + ".lock"
    }

    /// The lock file at `path`, with what its journal recorded since it was written (a refresh
    /// that SIGKILL stopped; a load it had begun keeps the entry before it, see
    /// `read(_:settling:)`); an empty one when there is none yet.
    public static func read(_ path: String) throws -> SocloadLockFile {
        try readWritten(path).applyingJournal(of: path).0
    }

    /// The lock file at `path` as written, without its journal.
    static func readWritten(_ path: String) throws -> SocloadLockFile {
        guard let data = FileManager.default.contents(atPath: path) else { return SocloadLockFile() }
        do {
            let file = try JSONDecoder().decode(SocloadLockFile.self, from: data)
            guard file.version == 1 else {
                throw ProjectError(path: path, key: "version", problem: "is \(file.version): this socload reads version 1")
            }
            return file
        } catch let error as ProjectError {
            throw error
        } catch {
            throw ProjectError(path: path,
                                   problem: "is not a lock file socload wrote (remove it and refresh to make it again)")
        }
    }

    /// What the database holds for `table` now, as a lock entry (nil: not in its catalog).
    /// `previous` lends its content hash when the table was not written since (`unchanged`: the
    /// portal said it was up to date), so an unchanged dataset costs no read of its rows.
    public static func entry(for table: String, in database: any LoadedDatabase, previous: Entry?, unchanged: Bool) throws -> Entry? {
        guard let catalog = try database.entry(for: table, withDescription: false) else { return nil }
        let plan = try database.planTable(named: catalog.tableName)
        let contentHash: String
        if unchanged, let previous, previous.fetchedAt == catalog.fetchedAt, previous.rowCount == catalog.rowCount,
           previous.table == catalog.tableName {
            contentHash = previous.contentHash
        } else {
            contentHash = try TableContentHash.rows(of: catalog.tableName, in: database)
        }
        return Entry(table: catalog.tableName, datasetID: catalog.datasetID, sourceURL: CredentialRedaction.url(catalog.sourceURL),
                     rowsUpdatedAt: catalog.rowsUpdatedAt, etag: catalog.etag, lastModified: catalog.lastModified,
                     fetchedAt: catalog.fetchedAt, schemaHash: plan.map(TableContentHash.schema) ?? "",
                     rowCount: catalog.rowCount, contentHash: contentHash)
    }

    /// Written whole to a new file beside `path`, then renamed over it; its journal, folded in,
    /// is removed.
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        // A write a kill interrupted left its temporary file: gone now.
        AbandonedFiles.remove(in: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
                              prefix: (path as NSString).lastPathComponent + ".socload-")
        let temporary = path + ".socload-\(getpid())"
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                throw ProjectFileSystemError("\(path) cannot be written: \(String(cString: strerror(errno)))")
            }
            unlink(Self.journalPath(forLock: path))
        } catch {
            unlink(temporary)
            if error is ProjectFileSystemError { throw error }
            throw ProjectFileSystemError("\(path) cannot be written: \(error.localizedDescription)")
        }
    }
}
