import SocloadCore
import SocloadProject

/// `verify --locked`: the project's database against `socload.lock`, without the network: for
/// each locked dataset, its version stamp, schema hash, row count and content hash as the
/// database holds them now. Exit 0 when all agree, 65 listing the differences.
enum LockedVerification {
    static func run(project path: String, names: [String], output: FormatOptions, context: CommandContext) throws {
        let project = try Project.load(path)
        let lockPath = SocloadLockFile.path(forProject: project.path)
        let lock = try ProjectLockReading.read(project, context: context)
        let chosen = try ProjectSelection.of(project, names: names, lock: lock, fromLock: true, context: context,
                                            command: VerifyCommand.spec).datasets
        guard !lock.datasets.isEmpty else {
            throw CommandFailure("\(lockPath) locks no dataset: socload refresh writes it", exitCode: .noInput)
        }
        guard let first = chosen.first else { return }
        let database = try DatasetFetch(project: project, dataset: first, context: context).database.openLoaded(context, command: VerifyCommand.spec)
        let writer = output.writer(context)
        writer.begin(columns: ["dataset", "table", "check", "locked", "database", "agrees"])
        var differences: [String] = []
        for dataset in chosen {
            guard let locked = lock.datasets[dataset.name] else {
                writer.write([.text(dataset.name), .null, .text("locked"), .null, .null, .text("NO")])
                differences.append("\(dataset.name) is not in \(lockPath)")
                continue
            }
            let held = try SocloadLockFile.entry(for: locked.table, in: database, previous: nil, unchanged: false)
            let checks: [(String, String?, String?)] = [
                ("rows_updated_at", locked.rowsUpdatedAt, held?.rowsUpdatedAt),
                ("schema_hash", locked.schemaHash, held?.schemaHash),
                ("row_count", String(locked.rowCount), held.map { String($0.rowCount) }),
                ("content_hash", locked.contentHash, held?.contentHash),
            ]
            for (check, lockedValue, heldValue) in checks {
                let agrees = held != nil && lockedValue == heldValue
                writer.write([.text(dataset.name), .text(locked.table), .text(check), lockedValue.map(DatabaseValue.text) ?? .null,
                              heldValue.map(DatabaseValue.text) ?? .null, .text(agrees ? "yes" : "NO")])
                if !agrees {
                    differences.append(held == nil ? "\(dataset.name): \(locked.table) is not in the database"
                                       : "\(dataset.name): \(check) is \(heldValue ?? "(none)"), the lock \(lockedValue ?? "(none)")")
                    if held == nil { break }
                }
            }
        }
        writer.finish()
        context.output.flush()
        guard differences.isEmpty else {
            throw CommandFailure("the database differs from \(lockPath): " + differences.joined(separator: "; "), exitCode: .dataError)
        }
    }
}
