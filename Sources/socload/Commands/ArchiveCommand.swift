import Foundation
import SocloadProject
import SocloadSocrata

/// `socload archive [NAME...] --to DIR`: the versions the project's cache keeps, as BagIt bags.
struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "archive",
        abstract: "Copy the versions the project's cache keeps, each a BagIt bag, to a folder.",
        discussion: """
            With "cache": DIR in the project file, every version of a dataset a refresh downloaded
            is kept as a BagIt bag (RFC 8493): its rows as received (a rows.json, or the query
            pages in order), the dataset's description then, the response's headers, and a SHA-256
            manifest ("keep-versions": N keeps the last N). archive checks each bag's checksums and
            copies it to DIR/DATASET-ID/STAMP.bag; a bag damaged or edited since it was kept is not
            copied and fails its dataset (exit 65), the others are copied.
            """)

    @Arguments(name: "name", help: "Only these datasets: their \"name\", table, or id, URL or file in the project.", minimum: 0)
    var names: [String]
    @Option(valueName: "file", help: "The project file.", default: "socload.json in the current directory") var project: String?
    @Option(valueName: "dir", help: "The folder to copy the bags to (made if missing).") var to: String?
    @Option(valueName: "dir", help: "The cache to read (without a project file: the one to copy every dataset of).",
            default: "the project's \"cache\"") var cache: String?

    func validate() throws {
        guard let to, !to.isEmpty else { throw UsageError("archive needs --to DIR, the folder to copy the bags to", command: Self.spec) }
    }

    func run(context: CommandContext) throws {
        let (folder, chosen) = try datasets(context: context)
        let store = DownloadCache(directory: folder)
        var failures: [String] = []
        var (copied, present) = (0, 0)
        for dataset in chosen {
            let id = dataset.id
            let bags = store.bags(datasetID: id)
            if bags.isEmpty { StandardError.line("  \(dataset.name): no version kept in \(folder)") }
            for bag in bags {
                let problems = VersionBag.problems(bag)
                guard problems.isEmpty else {
                    failures.append(dataset.name)
                    StandardError.line("Error: " + SocloadTool.oneLine(DamagedVersion(bag: bag, problems: problems).description))
                    continue
                }
                let target = ((to! as NSString).appendingPathComponent(id) as NSString).appendingPathComponent((bag as NSString).lastPathComponent)
                do {
                    try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    if FileManager.default.fileExists(atPath: target) {
                        guard !VersionBag.problems(target).isEmpty else {
                            present += 1
                            continue
                        }
                        try FileManager.default.removeItem(atPath: target)
                    }
                    try FileManager.default.copyItem(atPath: bag, toPath: target)
                    copied += 1
                    StandardError.line("  \(dataset.name): \((bag as NSString).lastPathComponent) -> \(target)")
                } catch {
                    throw CommandFailure("cannot copy \(bag) to \(target): \(error.localizedDescription)", exitCode: .ioError)
                }
            }
        }
        StandardError.line("Copied \(NumberText.counted(copied, "bag")) to \(to!)"
                           + (present > 0 ? " (\(present) already there, whole)" : ""))
        let failed = Array(Set(failures)).sorted()
        if !failed.isEmpty {
            throw CommandFailure("\(failed.count) of \(chosen.count) datasets have a kept version that fails its checksums: "
                                 + failed.shortList(), exitCode: .dataError)
        }
    }

    /// The cache and the datasets to copy (a name and a dataset id each): the project's, or
    /// without a project file, those in `--cache` (the `names` among them).
    private func datasets(context: CommandContext) throws -> (cache: String, datasets: [(name: String, id: String)]) {
        let path = project ?? "socload.json"
        guard project != nil || FileManager.default.fileExists(atPath: path) else {
            guard let cache else {
                throw CommandFailure("no project file here (socload.json): give --project FILE, or --cache DIR", exitCode: .noInput)
            }
            let ids = ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            if let unknown = names.first(where: { !ids.contains($0) }) {
                throw CommandFailure("\(cache) keeps no version of '\(TerminalText.escaped(unknown))'", exitCode: .noInput)
            }
            return (cache, ids.filter { names.isEmpty || names.contains($0) }.map { ($0, $0) })
        }
        let file = try Project.load(path)
        guard let folder = cache ?? file.cache else {
            throw CommandFailure("\(file.path) names no cache (\"cache\": DIR), so no version was kept", exitCode: .noInput)
        }
        let lock = try SocloadLockFile.read(SocloadLockFile.path(forProject: file.path))
        let chosen = try ProjectSelection.of(file, names: names, lock: lock, fromLock: false, context: context, command: Self.spec).datasets
        return (folder, try chosen.compactMap { dataset in
            let fetch = try DatasetFetch(project: file, dataset: dataset, context: context)
            return try fetch.request(context: context).reference.datasetID.map { (dataset.name, $0) }
        })
    }
}
