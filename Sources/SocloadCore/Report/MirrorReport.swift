import Foundation

/// What `socload report` tells about a mirror, per dataset: its watch (stale, gone, moved), its
/// last refreshes with the rows each added, changed and removed, its rows over time, its schema
/// changes, and whether it still holds to the portal's statistics. Made from a database's
/// catalog and logs alone (`build`), then written as HTML, Markdown, JSON or an Atom feed.
///
///     let report = MirrorReport(title: "Newsroom mirror", generatedAt: "2026-12-05T06:00:00Z", database: "'watch.sqlite'")
///     print(report.html().hasPrefix("<!DOCTYPE html>"))   // true
public struct MirrorReport: Sendable, Codable, Equatable {
    public var title: String
    public var generatedAt: String
    /// The database: a SQLite file's path (`open.sqlite`), or a PostgreSQL URL without its
    /// password, and its schema.
    public var database: String
    public var datasets: [Dataset] = []

    public init(title: String, generatedAt: String, database: String, datasets: [Dataset] = []) {
        self.title = title
        self.generatedAt = generatedAt
        self.database = database
        self.datasets = datasets
    }

    /// One dataset (one table) of the mirror.
    public struct Dataset: Sendable, Codable, Equatable {
        /// The project entry's name, else the table's.
        public var name: String
        public var table: String
        /// The dataset's own name on its portal.
        public var title: String?
        public var datasetID: String?
        /// Its page on the portal (`https://DOMAIN/d/ID`).
        public var page: String?
        public var source: String
        public var rows: Int
        /// When it was last loaded, and when the portal last changed its rows then.
        public var fetchedAt: String
        public var rowsUpdatedAt: String?
        public var watch: DatasetWatch?
        /// Since when the watch is as it is (the refresh that first judged it so), or nil when
        /// judged now.
        public var watchCheckedAt: String?
        /// The watches recorded before the current one that were stale, gone or moved (each
        /// an entry of the feed), oldest first.
        public var earlierWatches: [JudgedWatch] = []
        /// The last refreshes, oldest first.
        public var refreshes: [Refresh] = []
        public var schemaChanges: [SchemaChangeNote] = []
        /// The table held against the portal's statistics (`socload verify`); nil when there was
        /// nothing to hold it against.
        public var verify: Verify?

        public init(name: String, table: String, source: String, rows: Int, fetchedAt: String) {
            self.name = name
            self.table = table
            self.source = source
            self.rows = rows
            self.fetchedAt = fetchedAt
        }
    }

    /// One load, refresh or sync of a table.
    public struct Refresh: Sendable, Codable, Equatable {
        public var at: String
        public var kind: String
        public var rowsUpdatedAt: String?
        public var rows: Int
        /// Rows added, changed and removed; nil when they were not counted.
        public var added: Int?
        public var changed: Int?
        public var removed: Int?
        public var schemaChanges: Int
        /// The table's first load (nothing before it to count changes against).
        public var firstLoad = false
        /// Rows not counted (`--keep-changes 0`, a count switched off), but another number of
        /// rows than the refresh before.
        public var rowsMoved = false

        /// True when it changed rows or columns, or was the first load: what an Atom entry is
        /// written for.
        public var changedSomething: Bool { (added ?? 0) + (changed ?? 0) + (removed ?? 0) + schemaChanges > 0 || firstLoad || rowsMoved }

        public init(_ record: RefreshRecord) {
            at = record.refreshedAt
            kind = record.kind
            rowsUpdatedAt = record.rowsUpdatedAt
            rows = record.rowCount
            added = record.inserted
            changed = record.updated
            removed = record.deleted
            schemaChanges = record.schemaChanges
        }
    }

    /// A schema change as the log words it, and when.
    /// A watch as a refresh recorded it, and since when it was so.
    public struct JudgedWatch: Sendable, Codable, Equatable {
        public var checkedAt: String
        public var watch: DatasetWatch

        public init(checkedAt: String, watch: DatasetWatch) {
            self.checkedAt = checkedAt
            self.watch = watch
        }
    }

    public struct SchemaChangeNote: Sendable, Codable, Equatable {
        public var at: String
        public var line: String
    }

    /// `verify`'s verdict: how many checks, and the lines of those that failed.
    public struct Verify: Sendable, Codable, Equatable {
        public var checks: Int
        public var differences: [String]
        /// Why the table cannot be held to the portal's statistics (a partial load), if so.
        public var partialReason: String?
    }

    /// Counts of the datasets by watch, in the order of `DatasetWatch.State`.
    public var watchCounts: [(state: DatasetWatch.State, count: Int)] {
        DatasetWatch.State.allCases.compactMap { state in
            let count = datasets.filter { ($0.watch?.state ?? .unknown) == state }.count
            return count > 0 ? (state, count) : nil
        }
    }
}

extension MirrorReport {
    /// The report as JSON: every fact of the page, keys sorted, for a program to read.
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
