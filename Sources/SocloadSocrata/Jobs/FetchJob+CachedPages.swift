import Foundation
import SocloadCore
import SocloadEngine

/// A version the download cache keeps as a query API's pages (`DownloadCache.Version.pages`):
/// `refresh --locked` of a version the portal no longer serves, loaded as it was received.
extension FetchJob {
    /// The description kept beside the pages types the table; the pages are read in order, each
    /// through the same page source as a page from the portal.
    func loadCachedPages(_ directory: String, portal: SocrataPortal?, transaction: any LoadTransaction,
                         state: DatasetLoader.LoadState) throws {
        let view = try Self.keptView(in: directory)
        state.view = view
        if let portal { state.source = portal.resourceURL }
        let plan = try request.plan(for: SODARowLayout(view: view).view)
        try beginTable(plan, transaction: transaction, state: state)
        let sink = ObjectRowSink(plan: plan, strict: request.strict, storable: loader.destination.storableValues) { batch in
            try state.writer?.insert(batch)
        }
        state.rowCount = try readKeptPages(directory, sink: sink, state: state)
        state.invalidCells = sink.converter.invalidCells
    }

    /// Reads the kept pages in `directory` in order into `sink`, each checked against the rows
    /// its manifest says it had; returns the rows read.
    func readKeptPages(_ directory: String, sink: ObjectRowSink, state: DatasetLoader.LoadState) throws -> Int {
        let files = try DownloadCache.pageFiles(in: directory)
        let manifest = DownloadCache.pageRows(in: directory)
        guard let expected = manifest, expected.count == files.count else {
            throw CachedPagesIncomplete(directory: directory, problem: "has \(files.count) page files, its manifest "
                                        + (manifest.map { "lists \($0.count)" } ?? "cannot be read"))
        }
        var total = 0
        for (number, (path, rows)) in zip(files, expected).enumerated() {
            let read = try loader.readPagePipelined(.cachedPage(path: path), sink: sink, offset: total, limit: .max, maximum: .max,
                                                    state: state).rows
            guard read == rows else {
                throw CachedPagesIncomplete(directory: directory, problem: "page \(number + 1) has \(read) rows, \(rows) when it was kept")
            }
            total += read
        }
        return total
    }

    /// The description kept in a folder of pages.
    static func keptView(in directory: String) throws -> ViewMetadata {
        let path = (directory as NSString).appendingPathComponent(DownloadCache.descriptionName)
        guard let bytes = FileManager.default.contents(atPath: path) else { throw LoadError.fileNotFound(path) }
        return try ViewMetadata(description: Array(bytes), source: path)
    }
}

/// A kept pages version that lost a page or rows since it was written: nothing is loaded from it
/// (exit 65), the table as it was.
struct CachedPagesIncomplete: CategorizedError {
    let directory: String
    let problem: String

    var description: String { "the cache's copy \(directory) \(problem): it is incomplete, so nothing was loaded from it" }
    var kind: FailureKind { .badData }
}
