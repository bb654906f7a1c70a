import Foundation
import Glibc
import SocloadCore

/// Each version the cache keeps is a BagIt bag (`VersionBag`): `DIR/DATASET-ID/STAMP.bag/`. A
/// payload the dataset's previous bag already holds byte for byte is linked, not stored twice;
/// past `keptVersions`, the oldest bags of the dataset are removed.
extension DownloadCache {
    /// Where the bag of `datasetID` at `rowsUpdatedAt` is (or would be) kept.
    public func bagPath(datasetID: String, rowsUpdatedAt: String) -> String {
        String(path(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt).dropLast(".rows.json.gz".count)) + VersionBag.suffix
    }

    /// The dataset's bags, oldest version first.
    public func bags(datasetID: String) -> [String] {
        let folder = (bagPath(datasetID: datasetID, rowsUpdatedAt: "0") as NSString).deletingLastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(VersionBag.suffix) && !$0.hasPrefix(".") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }

    /// The kept version of `datasetID` at `rowsUpdatedAt`, its bag checked first: a bag damaged
    /// or edited since it was kept throws `DamagedVersion` naming what is wrong.
    public func checkedVersion(datasetID: String, rowsUpdatedAt: String) throws -> Version? {
        let bag = bagPath(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt)
        if FileManager.default.fileExists(atPath: bag) {
            let problems = VersionBag.problems(bag)
            guard problems.isEmpty else { throw DamagedVersion(bag: bag, problems: problems) }
        }
        return version(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt)
    }

    /// Puts `payload` (a finished file or folder, moved, named `name` in the bag's `data/`) into
    /// a new bag of the version, with the description and the response's headers beside it,
    /// then keeps it (a version kept whole already stays, unless damaged), links what the previous bag holds
    /// the same, and prunes past `keptVersions`.
    func keepBag(payload: String, as name: String, datasetID: String, rowsUpdatedAt: String, description: [UInt8],
                 head: HTTPResponseHead?) throws {
        let temporary = (directory as NSString).appendingPathComponent(".socload-\(getpid())-\(UUID().uuidString).bag-part")
        let data = (temporary as NSString).appendingPathComponent("data")
        do {
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: payload, toPath: (data as NSString).appendingPathComponent(name))
            if !description.isEmpty {
                FileManager.default.createFile(atPath: (data as NSString).appendingPathComponent("description.json"), contents: Data(description))
            }
            if let head {
                FileManager.default.createFile(atPath: (data as NSString).appendingPathComponent("headers.txt"),
                                               contents: Data(Self.headersText(head).utf8))
            }
            let previous = bags(datasetID: datasetID).last { $0 != bagPath(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt) }
            let known = try previous.map { try linkSame(in: data, as: $0) } ?? [:]
            try placeBag(temporary, datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt, known: known,
                         about: "the rows of \(datasetID) at rowsUpdatedAt \(rowsUpdatedAt), as received, with the dataset's description then")
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Seals the bag assembled in `temporary` (its `data/` complete; `known`: checksums already
    /// computed) and keeps it as the version's bag, in place of any bag of the same version, then
    /// prunes past `keptVersions`. `extra`: bag-info fields after the usual ones.
    func placeBag(_ temporary: String, datasetID: String, rowsUpdatedAt: String, known: [String: String], about: String,
                  extra: [(String, String)] = []) throws {
        try VersionBag.seal(temporary, info: [("External-Identifier", datasetID), ("Socrata-Rows-Updated-At", rowsUpdatedAt),
                                              ("External-Description", about)] + extra, known: known)
        let target = bagPath(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt)
        // A whole bag of the version kept already stays (what a sync received with it too): the
        // new one is only put in place of a damaged one.
        if FileManager.default.fileExists(atPath: target), VersionBag.problems(target).isEmpty {
            try? FileManager.default.removeItem(atPath: temporary)
            return
        }
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: target)
        guard rename(temporary, target) == 0 else { throw GzipFileError(path: target, reason: String(cString: strerror(errno))) }
        prune(datasetID: datasetID)
    }

    /// A response as kept: its status, then its headers sorted by name, one a line (a cookie
    /// the portal set is left out: evidence of the data, not of a session).
    static func headersText(_ head: HTTPResponseHead) -> String {
        let kept = head.headers.filter { $0.key.lowercased() != "set-cookie" }.sorted { $0.key < $1.key }
        return (["HTTP \(head.statusCode)"] + kept.map { "\($0.key): \($0.value)" }).joined(separator: "\n") + "\n"
    }

    /// Each payload file of the new bag that the previous bag holds byte for byte (the same size
    /// and checksum, its manifest's first: the old file is read only for a likely match) becomes a
    /// hard link to it: an unchanged download is
    /// not stored twice. Returns the checksums it computed, by path under `data/`.
    private func linkSame(in data: String, as previous: String) throws -> [String: String] {
        let previousData = (previous as NSString).appendingPathComponent("data")
        let listed = VersionBag.manifest(of: previous)
        var known: [String: String] = [:]
        func size(_ path: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int }
        for file in try VersionBag.files(under: data) {
            let new = (data as NSString).appendingPathComponent(file), old = (previousData as NSString).appendingPathComponent(file)
            guard let sum = listed[file], let oldSize = size(old), size(new) == oldSize else { continue }
            let newSum = try VersionBag.checksum(of: new)
            known[file] = newSum
            // The old file as it is now, not only as it was listed: a damaged copy is never linked.
            guard newSum == sum, try VersionBag.checksum(of: old) == sum else { continue }
            let linked = new + ".link"
            if link(old, linked) == 0, rename(linked, new) == 0 { continue }
            unlink(linked)
        }
        return known
    }

    /// Removes the dataset's oldest bags past `keptVersions` (nil: every version is kept).
    func prune(datasetID: String) {
        guard let keptVersions, keptVersions > 0 else { return }
        for bag in bags(datasetID: datasetID).dropLast(keptVersions) { try? FileManager.default.removeItem(atPath: bag) }
    }
}

/// A kept version whose bag fails its checksums (damaged, or edited since it was kept).
public struct DamagedVersion: CategorizedError, Equatable {
    public let bag: String
    public let problems: [String]

    public init(bag: String, problems: [String]) {
        self.bag = bag
        self.problems = problems
    }

    public var kind: FailureKind { .badData }
    public var description: String {
        "the cache's copy \(bag) is not as it was kept: " + problems.prefix(5).joined(separator: "; ")
            + (problems.count > 5 ? " ... and \(problems.count - 5) more" : "")
    }
}
