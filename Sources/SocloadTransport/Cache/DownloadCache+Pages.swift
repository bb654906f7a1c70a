import Foundation
import Glibc
import SocloadCore

/// The query APIs' versions in the cache: the pages of one `rowsUpdatedAt` as received, in order,
/// each gzip-compressed, beside the dataset's description that types them —
/// `DIR/DATASET-ID/STAMP.pages/000001.json.gz`, `000002.json.gz`, ..., `view.json`, and
/// `pages.json`, the rows of each page (`{"rows": [50000, 50000, 1234]}`), written last — so
/// `refresh --locked` (and kept versions) work whichever API loaded the table.
extension DownloadCache {
    /// A version the cache keeps, in either form.
    public enum Version: Sendable, Equatable {
        /// A rows.json export (`STAMP.rows.json.gz`).
        case export(path: String)
        /// Query-API pages and their description (`STAMP.pages/`).
        case pages(directory: String)
    }

    /// Where the pages of `datasetID` at `rowsUpdatedAt` are (or would be) kept.
    public func pagesDirectory(datasetID: String, rowsUpdatedAt: String) -> String {
        String(path(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt).dropLast(".rows.json.gz".count)) + ".pages"
    }

    /// The kept copy of that version, an export or pages, when there is one (its bag, else a
    /// copy kept before bags). `checkedVersion` checks the bag's checksums first.
    public func version(datasetID: String, rowsUpdatedAt: String) -> Version? {
        let bag = bagPath(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt)
        let export = (bag as NSString).appendingPathComponent("data/rows.json.gz")
        if FileManager.default.fileExists(atPath: export) { return .export(path: export) }
        let pages = (bag as NSString).appendingPathComponent("data/pages")
        if [Self.descriptionName, Self.manifestName].allSatisfy({
            FileManager.default.fileExists(atPath: (pages as NSString).appendingPathComponent($0))
        }) { return .pages(directory: pages) }
        if let path = copy(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt) { return .export(path: path) }
        let directory = pagesDirectory(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt)
        let complete = [Self.descriptionName, Self.manifestName].allSatisfy {
            FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0))
        }
        return complete ? .pages(directory: directory) : nil
    }

    /// The page files of a kept pages version, in order.
    public static func pageFiles(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json.gz") }.sorted()
            .map { (directory as NSString).appendingPathComponent($0) }
    }

    /// The description kept beside the pages.
    public static let descriptionName = "view.json"
    /// The rows of each page, kept beside them: a copy that lost a page or rows is told by it.
    public static let manifestName = "pages.json"

    /// The rows of each page a kept pages version had when it was written; nil when its manifest
    /// cannot be read.
    public static func pageRows(in directory: String) -> [Int]? {
        guard let data = FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(manifestName)),
              case .object(let members)? = try? JSONValueParser.parse(Array(data)),
              case .array(let counts)? = members.first(where: { $0.key == "rows" })?.value else { return nil }
        var rows: [Int] = []
        for count in counts {
            guard case .number(let text) = count, let value = Int(text) else { return nil }
            rows.append(value)
        }
        return rows
    }

    /// A new pages copy, written page by page as the load reads them, kept only once complete;
    /// compressed at zlib's `level` (0 stores: a spool read back at once, kept as a plain
    /// `STAMP.pages` folder rather than a bag: no evidence, no checksums to spend time on).
    public func startPages(level: Int32 = 6) throws -> PagesWriter {
        let temporary = (directory as NSString).appendingPathComponent(".socload-\(getpid())-\(UUID().uuidString).pages")
        try makeFolder()
        guard mkdir(temporary, 0o777) == 0 else {
            throw GzipFileError(path: directory, reason: "the cache folder cannot be written (\(String(cString: strerror(errno))))")
        }
        return PagesWriter(cache: self, temporary: temporary, level: level)
    }

    /// One load's pages on their way into the cache. A page read again (a retry) is written
    /// again from its start.
    public final class PagesWriter {
        private let cache: DownloadCache
        private let temporary: String
        private let level: Int32
        private var done = false
        /// The rows of each page finished so far, by page number.
        private var rows: [Int: Int] = [:]

        init(cache: DownloadCache, temporary: String, level: Int32) {
            self.cache = cache
            self.temporary = temporary
            self.level = level
        }

        deinit {
            if !done { try? FileManager.default.removeItem(atPath: temporary) }
        }

        /// The file of page `number` (from 1), empty.
        public func page(_ number: Int) throws -> PageFile {
            let name = String(repeating: "0", count: max(0, 6 - String(number).count)) + "\(number).json.gz"
            return PageFile(writer: try GzipFileWriter(path: (temporary as NSString).appendingPathComponent(name), level: level))
        }

        /// Page `number` arrived whole with `rowCount` rows: its file is complete, its response's
        /// headers beside it (`000001.headers.txt`) when they are known.
        public func finish(_ file: PageFile, page number: Int, rows rowCount: Int) throws {
            try file.finish()
            rows[number] = rowCount
            if let head = file.head, level != 0 {
                let name = String(repeating: "0", count: max(0, 6 - String(number).count)) + "\(number).headers.txt"
                FileManager.default.createFile(atPath: (temporary as NSString).appendingPathComponent(name),
                                               contents: Data(DownloadCache.headersText(head).utf8))
            }
        }

        /// Every page arrived: kept under the version it is, with `description` (the dataset's
        /// description JSON) and the pages' row counts beside it; a version that states no
        /// `rowsUpdatedAt` is not kept.
        public func keep(datasetID: String?, rowsUpdatedAt: String?, description: [UInt8]) throws {
            guard let datasetID, let rowsUpdatedAt else {
                done = true
                try? FileManager.default.removeItem(atPath: temporary)
                return
            }
            _ = try completed(description: description)
            if level == 0 {
                let target = cache.pagesDirectory(datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt)
                try? FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                         withIntermediateDirectories: true)
                try? FileManager.default.removeItem(atPath: target)
                guard rename(temporary, target) == 0 else {
                    let reason = String(cString: strerror(errno))
                    try? FileManager.default.removeItem(atPath: temporary)
                    throw GzipFileError(path: target, reason: reason)
                }
                return
            }
            do {
                try cache.keepBag(payload: temporary, as: "pages", datasetID: datasetID, rowsUpdatedAt: rowsUpdatedAt,
                                  description: description, head: nil)
            } catch {
                try? FileManager.default.removeItem(atPath: temporary)
                throw error
            }
        }

        /// Every page arrived: `description` and the pages' row counts written beside them; the
        /// folder they are in is the caller's from now on (moved into a bag, or removed).
        func completed(description: [UInt8]) throws -> String {
            done = true
            for (name, contents) in [(DownloadCache.descriptionName, description),
                                     (DownloadCache.manifestName, Array(("{\"rows\": [" + rows.keys.sorted().map { String(rows[$0] ?? 0) }
                                                                        .joined(separator: ", ") + "]}").utf8))] {
                let path = (temporary as NSString).appendingPathComponent(name)
                guard FileManager.default.createFile(atPath: path, contents: Data(contents)) else {
                    try? FileManager.default.removeItem(atPath: temporary)
                    throw GzipFileError(path: path, reason: "cannot be written")
                }
            }
            return temporary
        }
    }

    /// One page's file, written by the thread that reads the page (one at a time).
    public final class PageFile: @unchecked Sendable {
        // @unchecked Sendable: handed to the thread that downloads the page, used by it alone,
        // finished by the loader after that thread is done.
        private let writer: GzipFileWriter
        /// The page's response, when the reader saw it: its headers are kept beside the page.
        public var head: HTTPResponseHead?

        init(writer: GzipFileWriter) {
            self.writer = writer
        }

        public func write(_ chunk: UnsafeRawBufferPointer) throws { try writer.write(chunk) }

        /// The page arrived whole: its file is complete (`PagesWriter.finish` records its rows).
        func finish() throws { try writer.finish() }
    }
}
