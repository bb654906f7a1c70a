import Foundation
import Glibc
import SocloadCore

/// A sync brings a table from one version to the next without reading it whole: the version it
/// brings up to date is kept as the version it started from (its payload linked, not copied)
/// plus the sync's own pages, in order — `data/syncs/1/`, `data/syncs/2/`, ... — each with
/// the rows the sync received (`000001.json.gz`, ..., `pages.json`, `view.json`), `sync.json`
/// (`{"since": ..., "from": ..., "rowsUpdatedAt": ...}`) and, when it deleted the rows the
/// portal no longer has, the keys the portal listed (`keys/`). `refresh --locked` replays them
/// on the base to restore the version.
extension DownloadCache {
    /// What one kept sync says of itself (`sync.json`).
    public struct SyncRecord: Codable, Sendable, Equatable {
        /// The `_updated_at` the sync asked for rows after (nil: the table was empty).
        public var since: String?
        /// The version it started from.
        public var from: String
        /// The version it brought the table to.
        public var rowsUpdatedAt: String

        public init(since: String?, from: String, rowsUpdatedAt: String) {
            (self.since, self.from, self.rowsUpdatedAt) = (since, from, rowsUpdatedAt)
        }
    }

    /// The name of a sync's record in its folder.
    public static let syncRecordName = "sync.json"
    /// The folder of the keys a sync with deletes listed, in a sync's folder.
    public static let syncKeysName = "keys"

    /// The syncs the kept version of `datasetID` at `rowsUpdatedAt` adds to the version it
    /// started from, in the order they ran (empty: a version loaded whole, or none kept).
    public func syncs(datasetID: String, rowsUpdatedAt: String) -> [String] {
        Self.syncs(inBag: bagPath(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt))
    }

    static func syncs(inBag bag: String) -> [String] {
        let folder = (bag as NSString).appendingPathComponent("data/syncs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap(Int.init).sorted().map { (folder as NSString).appendingPathComponent(String($0)) }
    }

    /// What the sync kept in `folder` says of itself; nil when it cannot be read.
    public static func record(inSync folder: String) -> SyncRecord? {
        FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(syncRecordName))
            .flatMap { try? JSONDecoder().decode(SyncRecord.self, from: $0) }
    }

    /// Keeps version `rowsUpdatedAt` of `datasetID` as the kept version `from` plus one sync:
    /// `pages` (the rows it received, complete), `keys` (the keys the portal listed, for a sync
    /// that deleted the rows it no longer has) and `description` (the dataset's description
    /// now). Returns false, keeping nothing, when the cache keeps no version `from` to start from.
    /// The base's files are hard links (a copy where the file system has none), under the
    /// checksums its manifest lists: a base edited since it was kept makes the new bag fail
    /// its checks too.
    @discardableResult
    public func keepSync(_ pages: PagesWriter, keys: PagesWriter?, since: String?, from: String, datasetID: String,
                         rowsUpdatedAt: String, description: [UInt8]) throws -> Bool {
        let temporary = (directory as NSString).appendingPathComponent(".socload-\(getpid())-\(UUID().uuidString).bag-part")
        let data = (temporary as NSString).appendingPathComponent("data")
        do {
            // Pages not kept are removed by their writers.
            guard let known = try linkBase(from, datasetID: datasetID, into: data) else {
                try? FileManager.default.removeItem(atPath: temporary)
                return false
            }
            let earlier = Self.syncs(inBag: temporary)
            let number = earlier.count + 1
            // The payload's own version: the one the first of the syncs started from.
            let base = earlier.first.flatMap(Self.record(inSync:))?.from ?? from
            let folder = (data as NSString).appendingPathComponent("syncs/\(number)")
            try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try move(try pages.completed(description: description), to: folder)
            if let keys { try move(try keys.completed(description: description), to: (folder as NSString).appendingPathComponent(Self.syncKeysName)) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let record = try encoder.encode(SyncRecord(since: since, from: from, rowsUpdatedAt: rowsUpdatedAt))
            for (path, contents) in [((folder as NSString).appendingPathComponent(Self.syncRecordName), record),
                                     ((data as NSString).appendingPathComponent("description.json"), Data(description))] {
                guard FileManager.default.createFile(atPath: path, contents: contents) else { throw GzipFileError(path: path, reason: "cannot be written") }
            }
            try placeBag(temporary, datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt, known: known,
                         about: "the rows of \(datasetID) at rowsUpdatedAt \(rowsUpdatedAt): those at \(base), then "
                         + "\(number == 1 ? "the sync" : "the \(number) syncs") that brought them up to date, as received",
                         extra: [("Socrata-Synced-From", base)])
            return true
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Links the payload of the kept version `stamp` (a bag's, its own description left out, or a
    /// copy kept before bags) into `data`; returns the checksums it is kept under, by path under
    /// `data/`, or nil when no such version is kept.
    private func linkBase(_ stamp: String, datasetID: String, into data: String) throws -> [String: String]? {
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let bag = bagPath(datasetID: datasetID, rowsUpdatedAt: stamp)
        if FileManager.default.fileExists(atPath: bag) {
            let listed = VersionBag.manifest(of: bag)
            var known: [String: String] = [:]
            for file in try VersionBag.files(under: (bag as NSString).appendingPathComponent("data")) where file != "description.json" {
                try linkOrCopy((bag as NSString).appendingPathComponent("data/" + file), to: (data as NSString).appendingPathComponent(file))
                known[file] = listed[file]
            }
            return known
        }
        switch version(datasetID: datasetID, rowsUpdatedAt: stamp) {
        case .export(let path)?:
            try linkOrCopy(path, to: (data as NSString).appendingPathComponent("rows.json.gz"))
        case .pages(let directory)?:
            for file in try VersionBag.files(under: directory) {
                try linkOrCopy((directory as NSString).appendingPathComponent(file), to: (data as NSString).appendingPathComponent("pages/" + file))
            }
        case nil:
            return nil
        }
        return [:]
    }

    private func linkOrCopy(_ source: String, to target: String) throws {
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if link(source, target) == 0 { return }
        do {
            try FileManager.default.copyItem(atPath: source, toPath: target)
        } catch {
            throw GzipFileError(path: source, reason: "cannot be linked or copied into the cache's new version: \(error.localizedDescription)")
        }
    }

    private func move(_ source: String, to target: String) throws {
        guard rename(source, target) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: source)
            throw GzipFileError(path: target, reason: reason)
        }
    }
}
