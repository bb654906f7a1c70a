import Foundation
import Glibc
import SocloadCore

/// One version of a dataset as the download cache keeps it: a BagIt bag (RFC 8493) that holds
/// the rows as received, the dataset's description at that time and the response's headers,
/// each file under a SHA-256 checksum, so a copy kept as evidence can be shown unedited.
///
///     DIR/DATASET-ID/STAMP.bag/
///       bagit.txt  bag-info.txt  manifest-sha256.txt  tagmanifest-sha256.txt
///       data/rows.json.gz  (a rows.json export)   or   data/pages/000001.json.gz ... view.json pages.json
///       data/description.json  data/headers.txt
///
/// `seal` writes the tag files of a folder whose `data/` is complete; `problems` checks a bag
/// as a validator does (every payload file listed and matching, none unlisted, the tag files
/// matching, the payload's size and count as `Payload-Oxum` says).
public enum VersionBag {
    /// The bag of `STAMP`: `STAMP.bag` beside the legacy forms.
    public static let suffix = ".bag"

    /// Writes `bagit.txt`, `bag-info.txt` (`info` after the fields every bag has), the payload
    /// manifest and the tag manifest into `folder`, whose `data/` holds the payload. `known`: the
    /// checksums of payload files already hashed (by their path under `data/`), not read again.
    public static func seal(_ folder: String, info: [(String, String)], known: [String: String] = [:]) throws {
        let payload = try files(under: (folder as NSString).appendingPathComponent("data"))
        var manifest = ""
        var bytes = 0
        for file in payload {
            let path = (folder as NSString).appendingPathComponent("data/" + file)
            manifest += "\(try known[file] ?? checksum(of: path))  data/\(encoded(file))\n"
            bytes += (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        let day = String(ISO8601Timestamp.nowToTheSecond().prefix(10))
        let fields = [("Bagging-Date", day), ("Payload-Oxum", "\(bytes).\(payload.count)"),
                      ("Bag-Software-Agent", "socload \(SocloadVersion.current)")] + info
        let tags: [(String, String)] = [
            ("bagit.txt", "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"),
            ("bag-info.txt", fields.map { "\($0.0): \(oneLine($0.1))\n" }.joined()),
            ("manifest-sha256.txt", manifest),
        ]
        var tagManifest = ""
        for (name, text) in tags {
            let path = (folder as NSString).appendingPathComponent(name)
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                throw GzipFileError(path: path, reason: "cannot be written")
            }
            tagManifest += "\(try checksum(of: path))  \(name)\n"
        }
        let path = (folder as NSString).appendingPathComponent("tagmanifest-sha256.txt")
        guard FileManager.default.createFile(atPath: path, contents: Data(tagManifest.utf8)) else {
            throw GzipFileError(path: path, reason: "cannot be written")
        }
    }

    /// What is wrong with the bag at `bag` (empty: it is whole and unedited).
    public static func problems(_ bag: String) -> [String] {
        func read(_ name: String) -> String? {
            FileManager.default.contents(atPath: (bag as NSString).appendingPathComponent(name)).map { String(decoding: $0, as: UTF8.self) }
        }
        guard read("bagit.txt")?.contains("BagIt-Version:") == true else { return ["bagit.txt is missing or not a BagIt declaration"] }
        var problems: [String] = []
        for (manifestName, scope) in [("tagmanifest-sha256.txt", "tag"), ("manifest-sha256.txt", "payload")] {
            guard let manifest = read(manifestName) else {
                problems.append("\(manifestName) is missing")
                continue
            }
            var listed: Set<String> = []
            for line in manifest.split(separator: "\n") where !line.isEmpty {
                let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
                guard parts.count == 2 else {
                    problems.append("\(manifestName) has a line that is not a checksum and a path")
                    continue
                }
                let name = decoded(parts[1].trimmingCharacters(in: .whitespaces))
                listed.insert(name)
                let path = (bag as NSString).appendingPathComponent(name)
                guard !name.contains(".."), let sum = try? checksum(of: path) else {
                    problems.append("\(name) is missing")
                    continue
                }
                if sum != parts[0].lowercased() { problems.append("\(name) does not match its checksum (\(scope) manifest)") }
            }
            if scope == "payload" {
                let present = Set(((try? files(under: (bag as NSString).appendingPathComponent("data"))) ?? []).map { "data/" + $0 })
                problems += present.subtracting(listed).sorted().map { "\($0) is not in the manifest" }
            }
        }
        // A missing payload manifest is missing from the tag manifest's list too: said once.
        var said: Set<String> = []
        return problems.filter { said.insert($0).inserted }
    }

    /// The checksums a bag's payload manifest lists, by path under `data/` (empty when it has none).
    static func manifest(of bag: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: (bag as NSString).appendingPathComponent("manifest-sha256.txt")) else {
            return [:]
        }
        var sums: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            let path = parts.count == 2 ? decoded(parts[1].trimmingCharacters(in: .whitespaces)) : ""
            if path.hasPrefix("data/") { sums[String(path.dropFirst(5))] = parts[0].lowercased() }
        }
        return sums
    }

    /// A file's SHA-256, as 64 hex digits, read in 1 MiB chunks.
    public static func checksum(of path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw GzipFileError(path: path, reason: "cannot be read") }
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { hash.update($0) }
        }
        return hash.hexDigest()
    }

    /// The files under `folder`, as paths relative to it, sorted.
    static func files(under folder: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        for case let file as String in walker {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(file), isDirectory: &isFolder),
               !isFolder.boolValue { files.append(file) }
        }
        return files.sorted()
    }

    /// A manifest's path: line ends and `%` percent-encoded, as RFC 8493 asks.
    static func encoded(_ path: String) -> String {
        path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\n", with: "%0A").replacingOccurrences(of: "\r", with: "%0D")
    }

    static func decoded(_ path: String) -> String {
        path.replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%25", with: "%")
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
