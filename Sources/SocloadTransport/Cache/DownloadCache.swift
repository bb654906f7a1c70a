import Foundation
import Glibc
import SocloadCore

/// A folder that keeps every version of a dataset a load downloaded, gzip-compressed, under its
/// version stamp, each in a BagIt bag with its checksums (`VersionBag`):
/// `DIR/DATASET-ID/ROWSUPDATEDAT.bag/` (the stamp with only digits, `T` and `Z`:
/// `20150401T000000Z`). A portal serves only its current version; with these copies `refresh
/// --locked` can load a locked version after the portal has moved on. Caches written before bags
/// (`STAMP.rows.json.gz`, `STAMP.pages/`) are still read.
public struct DownloadCache: Sendable, Equatable {
    public let directory: String
    /// The versions of each dataset kept (`"keep-versions"`); nil: every version.
    public var keptVersions: Int?

    public init(directory: String, keptVersions: Int? = nil) {
        self.directory = directory
        self.keptVersions = keptVersions
    }

    /// Where the copy of `datasetID` at `rowsUpdatedAt` is (or would be) kept.
    public func path(datasetID: String, rowsUpdatedAt: String) -> String {
        let stamp = String(rowsUpdatedAt.filter { $0.isASCII && ($0.isNumber || $0 == "T" || $0 == "Z") })
        let folder = String(datasetID.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        return (directory as NSString).appendingPathComponent("\(folder)/\(stamp).rows.json.gz")
    }

    /// The kept copy, when there is one.
    public func copy(datasetID: String, rowsUpdatedAt: String) -> String? {
        let path = path(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// A new copy, written as the download comes, kept only once it is complete.
    public func startCopy() throws -> CopyWriter {
        try makeFolder()
        let temporary = (directory as NSString).appendingPathComponent(".socload-\(getpid())-\(UUID().uuidString).part")
        return CopyWriter(cache: self, temporary: temporary, file: try GzipFileWriter(path: temporary))
    }

    /// Makes the cache's folder (and the folders above it) when missing; a reason a person reads
    /// when it cannot (a file in its place, no permission).
    func makeFolder() throws {
        var path = ""
        for component in (directory as NSString).pathComponents {
            path = path.isEmpty ? component : (path as NSString).appendingPathComponent(component)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw GzipFileError(path: directory, reason: path == directory ? "a file, not a folder for the cache" : "\(path) is a file, not a folder for the cache") }
                continue
            }
            if mkdir(path, 0o777) != 0, errno != EEXIST {
                throw GzipFileError(path: directory, reason: "the cache folder cannot be made (\(String(cString: strerror(errno))))")
            }
        }
        if access(directory, W_OK) != 0 {
            throw GzipFileError(path: directory, reason: "the cache folder cannot be written (\(String(cString: strerror(errno))))")
        }
    }

    /// One download's copy on its way into the cache.
    public final class CopyWriter {
        private let cache: DownloadCache
        private let temporary: String
        private let file: GzipFileWriter
        private var done = false

        init(cache: DownloadCache, temporary: String, file: GzipFileWriter) {
            self.cache = cache
            self.temporary = temporary
            self.file = file
        }

        deinit {
            if !done { unlink(temporary) }
        }

        public func write(_ chunk: UnsafeRawBufferPointer) throws { try file.write(chunk) }

        /// The whole body arrived: kept in a bag under the version it states, with `description`
        /// (the dataset's description then) and the response's `head` (a body that states no
        /// version is not kept: nothing could ask for it).
        public func keep(datasetID: String?, rowsUpdatedAt: String?, description: [UInt8] = [], head: HTTPResponseHead? = nil) throws {
            done = true
            guard let datasetID, let rowsUpdatedAt else {
                unlink(temporary)
                return
            }
            do {
                try file.finish()
                try cache.keepBag(payload: temporary, as: "rows.json.gz", datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt,
                                  description: description, head: head)
            } catch {
                unlink(temporary)
                throw error
            }
        }
    }
}
