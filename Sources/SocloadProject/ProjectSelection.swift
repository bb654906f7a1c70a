import Foundation
import SocloadCore
import SocloadSocrata

/// The datasets of a project a refresh works on: the entries that name one dataset, then what
/// each catalog search lists now, or, `fromLock` (`refresh --locked`), what the lock records for
/// it. `names` (empty: all) name datasets (by name, table, id, URL or file) or searches.
public struct ProjectSelection: Sendable {
    public var datasets: [Project.Dataset]
    /// Searches whose catalog could not be asked: their datasets are left as they are.
    public var failedSearches: [(name: String, error: any Error)] = []
    /// Datasets a search loaded before (the lock says so) that it no longer lists.
    public var left: [(name: String, table: String, search: String)] = []

    public init(_ project: Project, names: [String] = [], lock: SocloadLockFile, fromLock: Bool = false,
                http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let known = project.datasets.map(\.name) + project.searches.map(\.name)
        // A table the lock records for an entry names that entry too (a URL entry's table is
        // known once it is loaded: a CKAN, ArcGIS or OpenDataSoft URL's table is named by its platform).
        let names = names.map { name in
            guard !project.datasets.contains(where: { $0.isCalled(name) }), !project.searches.contains(where: { $0.name == name }),
                  let entry = lock.datasets.sorted(by: { $0.key < $1.key }).first(where: { $0.value.table.lowercased() == name.lowercased() })
            else { return name }
            return entry.key
        }
        let unmatched = names.filter { name in
            !project.datasets.contains { $0.isCalled(name) } && !project.searches.contains { $0.name == name }
        }
        if !unmatched.isEmpty, project.searches.isEmpty {
            throw UnknownDatasetName("\(project.path) has no dataset named '\(unmatched[0])' (it has: \(known.joined(separator: ", ")))")
        }
        datasets = names.isEmpty ? project.datasets : project.datasets.filter { dataset in names.contains { dataset.isCalled($0) } }
        for search in project.searches {
            let whole = names.isEmpty || names.contains(search.name)
            guard whole || !unmatched.isEmpty else { continue }
            let found: [Project.Dataset]
            do {
                found = fromLock ? search.lockedDatasets(lock) : try search.expand(http: http, retry: retry, environment: environment)
            } catch {
                if whole { failedSearches.append((search.name, error)) }
                continue
            }
            let fresh = found.filter { dataset in !datasets.contains { $0.isCalled(dataset.name) } }
            datasets += whole ? fresh : fresh.filter { dataset in unmatched.contains { dataset.isCalled($0) } }
            guard whole, !fromLock else { continue }
            for (name, entry) in lock.datasets.sorted(by: { $0.key < $1.key })
            where entry.search == search.name && !found.contains(where: { $0.name == name }) {
                left.append((name, entry.table, search.name))
            }
        }
        let missing = unmatched.filter { name in !datasets.contains { $0.isCalled(name) } }
        if let name = missing.first, failedSearches.isEmpty {
            throw UnknownDatasetName("\(project.path) has no dataset named '\(name)' (it has: \(known.joined(separator: ", ")), "
                                     + "and what its searches find)")
        }
    }
}

/// A name given to a refresh that no dataset or search of the project has.
public struct UnknownDatasetName: Error, LocalizedError, Sendable, CustomStringConvertible {
    public let description: String
    public var errorDescription: String? { description }
    init(_ description: String) { self.description = description }
}
