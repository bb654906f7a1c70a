import Foundation
import Glibc
import SocloadCore

/// A folder that keeps every version of a dataset a load downloaded, gzip-compressed, under its
/// version stamp: `DIR/DATASET-ID/ROWSUPDATEDAT.rows.json.gz` (the stamp with only digits, `T`
/// and `Z`: `20150401T000000Z`). A portal serves only its current version; with these copies
/// `refresh --locked` can load a locked version after the portal has moved on.
public struct DownloadCache: Sendable, Equatable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
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
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw GzipFileError(path: directory, reason: "the cache folder cannot be made: \(error.localizedDescription)")
        }
        let temporary = (directory as NSString).appendingPathComponent(".socload-\(getpid())-\(UUID().uuidString).part")
        return CopyWriter(cache: self, temporary: temporary, file: try GzipFileWriter(path: temporary))
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

        /// The whole body arrived: kept under the version it states (a body that states none is
        /// not kept: nothing could ask for it).
        public func keep(datasetID: String?, rowsUpdatedAt: String?) throws {
            done = true
            guard let datasetID, let rowsUpdatedAt else {
                unlink(temporary)
                return
            }
            try file.finish()
            let target = cache.path(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt)
            try? FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            guard rename(temporary, target) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw GzipFileError(path: target, reason: reason)
            }
        }
    }
}
