import Foundation
/// What kind of failure an error is, so a front end can pick its exit status.
public enum FailureKind: Sendable, Equatable {
    /// The user asked for something impossible (a URL with no dataset id, say).
    case usage
    /// The data could not be read.
    case badData
    /// A file, dataset or table does not exist.
    case missingInput
    /// The network or the portal failed.
    case unavailable
    /// The database failed.
    case database
    /// The load was stopped by a signal (its number).
    case interrupted(Int32)
    /// The database refused: the role lacks a privilege (PostgreSQL's 42501).
    case notPermitted
    /// A statement ran longer than it was allowed (`--timeout`) and was cancelled, or a wait
    /// for another process (a refresh of the same project) was refused.
    case timedOut
    /// A file beside the database (a project's lock file) could not be written or locked.
    case fileSystem
}

/// An error that knows what kind of failure it is.
public protocol CategorizedError: Error, CustomStringConvertible {
    var kind: FailureKind { get }
}

/// Why a load failed, apart from reading, network and database errors.
public enum LoadError: CategorizedError, Equatable {
    case rowShape(row: Int, expected: Int, found: Int)
    case constraint(row: Int, message: String)
    case interrupted(signal: Int32)
    /// The load's `Task` was cancelled (`await loader.load(_:)`).
    case cancelled
    case reservedTableName(String)
    case fileNotFound(String)
    case unreadableFile(path: String, reason: String)
    case notTabular(id: String, kind: String)
    case unsupported(String)
    case schemaChanged(table: String, differences: [String])
    case notFetchedFromPortal(String)
    case notInCatalog(String)
    case nullKey(table: String, column: String, row: Int)
    case duplicateKey(table: String, key: String, value: String, rows: [Int])
    /// The metadata describes no column at all.
    case noColumns(String)
    /// A document without a description whose records have no field (a CSV of a header alone,
    /// an empty array): no column to make a table of.
    case noFields(table: String, source: String)
    /// A name from the data that no database can hold (a NUL character in it).
    case badName(String)
    /// With `--strict`: an index or trigger the user built on the old table cannot be rebuilt.
    case userObjectLost(String)
    /// The dataset has more rows than `LoadSpec.maxRows` allows.
    case tooManyRows(maximum: Int)
    /// `sync --deletes` would delete more rows than allowed (`--max-deletes`), or every row
    /// because the portal listed none.
    case tooManyDeletes(table: String, deleting: Int, rows: Int, maximum: Int?)
    /// A SODA page repeated rows of the page before: the server ignores how the pages continue
    /// (`ignoring`: `$offset`, or the condition on `:id` of paging by key), and paging would
    /// never end. `rowID` is a repeated `:id` (nil when the rows have none and the whole page
    /// repeated).
    case pageRepeated(page: Int, rowID: String?, ignoring: String = "$offset")
    /// The dataset changed on the portal while its pages were read (its `rowsUpdatedAt` moved
    /// from `before` to `after`), again after the load started over once: pages are not a
    /// snapshot, so the rows read may mix two versions.
    case changedWhileRead(before: String, after: String)
    /// The file system has less room than a new copy of the table needs.
    case notEnoughSpace(table: String, needed: Int64, available: Int64, directory: String, writtenTwice: Bool)
    /// The plan has more columns than the destination's tables hold.
    case tooManyColumns(table: String, count: Int, maximum: Int, database: String)
    /// A table the load would make is another dataset's or a user's.
    case tableTaken(String, reason: String)
    /// The catalog lists a table the database does not have (dropped by hand).
    case tableMissing(String)
    /// A SODA page held more rows than it asked for (`$limit`): the server does not page.
    case pageTooLong(page: Int, limit: Int)
    /// The source is another version than the load must load (`refresh --locked`): its
    /// rowsUpdatedAt (nil: it states none).
    case notTheExpectedVersion(expected: String, found: String?)
    /// An append or upsert whose records the table cannot take as it is (`TableMerge`): one
    /// line per column, then what would let it go on.
    case recordsDoNotFit(table: String, differences: [String])
    /// An append whose records have keys the table has already.
    case keysAlreadyPresent(table: String, key: [String], count: Int, firstRecord: Int, lastRecord: Int)

    public var description: String {
        switch self {
        case let .recordsDoNotFit(table, differences):
            return "the records do not fit \(table): \(differences.joined(separator: "; "))"
        case let .keysAlreadyPresent(table, key, count, first, last):
            return "--mode append: \(count) of records \(first)-\(last) \(count == 1 ? "has a key" : "have keys") "
                + "(\(key.joined(separator: ", "))) already in \(table): --mode upsert updates those rows"
        case let .rowShape(row, expected, found):
            return "row \(row): \(found) cell\(found == 1 ? "" : "s") where the metadata has \(expected) columns"
        case let .constraint(row, message):
            return "row \(row): \(message)"
        case .cancelled:
            return "cancelled"
        case let .interrupted(signal):
            if signal == LoadCancellation.taskCancelled { return "cancelled" }
            return "interrupted by \(signal == 15 ? "SIGTERM" : signal == 2 ? "SIGINT" : "signal \(signal)")"
        case let .reservedTableName(name):
            return "'\(name)' is reserved for socload's or SQLite's own use; choose another --table"
        case let .fileNotFound(path):
            return "no such file: \(path)"
        case let .unreadableFile(path, reason):
            return "cannot read \(path): \(reason)"
        case let .notTabular(id, kind):
            return "\(id.isEmpty ? "the view" : id) is a \(kind), not a tabular dataset: it has no rows of its own to load"
        case let .unsupported(message):
            return message
        case let .tooManyDeletes(table, deleting, rows, maximum):
            guard let maximum else {
                return "the portal listed no rows: sync --deletes would delete all \(deleting) rows of \(table) "
                    + "(--max-deletes 100% allows that)"
            }
            return "sync --deletes would delete \(deleting) of the \(rows) rows of \(table), more than --max-deletes allows "
                + "(\(maximum))"
        case let .schemaChanged(table, differences):
            return "the shape of \(table) changed upstream (\(differences.joined(separator: "; "))): "
                + "--on-schema-change evolve keeps the table's columns; warn takes the new shape (fetch, load)"
        case let .notFetchedFromPortal(table):
            return "\(table) was not loaded from a portal, so there is nothing to sync it with: fetch it by dataset id or URL"
        case let .notInCatalog(name):
            return "no table or dataset '\(name)' in the catalog: fetch it first"
        case let .nullKey(table, column, row):
            // `_id` is Socrata's row id: rows without one (a SODA 2.0 page, a page saved
            // without `$select=:*,*`) need a key of their own columns.
            return "row \(row): the key \(column) of \(table) is empty (NULL)"
                + (column == "_id" ? ": the rows carry no :id; --pk COLUMN keys the table by a column of theirs" : "")
        case let .noColumns(table):
            return "the dataset's metadata describes no column, so there is no table \(table) to make"
        case let .noFields(table, source):
            return "\(source) has no record with a field (a header alone, an empty array): socload types a table's columns "
                + "from the records' values, so there is nothing to load into \(table)"
        case let .badName(what):
            return "\(what) has a NUL character, which no table or column name may hold"
        case let .tooManyRows(maximum):
            return "the dataset has more than \(maximum) rows (--max-rows \(maximum))"
        case let .pageRepeated(page, rowID, ignoring):
            let what = rowID.map { "row \($0) of page \(page - 1)" } ?? "every row of page \(page - 1)"
            return "the portal is not paging: page \(page) repeats \(what) (it ignores \(ignoring)?)"
        case let .changedWhileRead(before, after):
            return "the dataset changed on the portal while its pages were read, twice (rowsUpdatedAt \(before), then \(after)): "
                + "pages are not a snapshot, so nothing was kept of this load; try again when the portal is quiet"
        case let .notEnoughSpace(table, needed, available, directory, writtenTwice):
            func megabytes(_ bytes: Int64) -> String { bytes < 10_000_000 ? String(format: "%.1f MB", Double(bytes) / 1e6)
                : "\(bytes / 1_000_000) MB" }
            return "not enough free space in \(directory) for a new copy of \(table): it needs about \(megabytes(needed))"
                + (writtenTwice ? " (its size now, written twice with write-ahead logging)" : " (its size now)")
                + " and \(megabytes(available)) are free"
        case let .tooManyColumns(table, count, maximum, database):
            return "\(table) would have \(count) columns (a location is three, a url or phone two), "
                + "more than the \(maximum) a \(database) table holds"
        case let .tableTaken(table, reason):
            return "the load would write \(table), but \(reason): choose another --table, or drop \(table) first"
        case let .tableMissing(table):
            return "the catalog lists \(table), but the database has no such table (dropped by hand?): fetch it again, "
                + "or socload drop \(table) to forget it"
        case let .notTheExpectedVersion(expected, found):
            return "the source is not the locked version: it has rowsUpdatedAt \(found ?? "(none)"), the lock \(expected)"
        case let .pageTooLong(page, limit):
            return "the portal is not paging: page \(page) has more than the \(limit) rows it asked for (it ignores $limit?)"
        case let .userObjectLost(note):
            return note + "; --strict stops the load"
        case let .duplicateKey(table, key, value, rows):
            let where_ = rows.count == 2 ? "rows \(rows[0]) and \(rows[1])" : "rows " + rows.map(String.init).joined(separator: ", ")
            return "duplicate key \(key) = \(value) in \(table): \(where_)"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .rowShape, .constraint, .nullKey, .duplicateKey, .userObjectLost, .noColumns, .noFields, .badName, .tooManyRows, .tooManyColumns:
            return .badData
        case .pageRepeated, .pageTooLong, .changedWhileRead: return .unavailable
        case .interrupted(let signal): return .interrupted(signal)
        case .cancelled: return .interrupted(LoadCancellation.taskCancelled)
        case .reservedTableName, .tableTaken: return .usage
        case .fileNotFound: return .missingInput
        case .unreadableFile, .notEnoughSpace: return .database
        case .notTabular, .schemaChanged, .tooManyDeletes, .notTheExpectedVersion, .recordsDoNotFit, .keysAlreadyPresent:
            return .badData
        case .unsupported, .notFetchedFromPortal: return .usage
        case .notInCatalog, .tableMissing: return .missingInput
        }
    }
}
