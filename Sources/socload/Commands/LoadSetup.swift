import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite
import SocloadPostgreSQL
import SocloadProject

/// How `fetch`, `load`, `sync` and `extract` get ready: the destination `--db` names, opened, and a
/// loader wired to the terminal (credentials, retries, signals, progress).
enum LoadSetup {
    /// An open database and a loader wired to the terminal: progress, retry notices, Ctrl-C.
    final class Session {
        private let closeDatabase: () -> Void
        let loader: DatasetLoader
        let meter: ProgressMeter
        /// `--quiet`: informational lines (the summary) are not printed; warnings and errors are.
        let quiet: Bool
        private let signals: SignalTrap

        init(closeDatabase: @escaping () -> Void, loader: DatasetLoader, meter: ProgressMeter, quiet: Bool,
             signals: SignalTrap) {
            self.closeDatabase = closeDatabase
            self.loader = loader
            self.meter = meter
            self.quiet = quiet
            self.signals = signals
        }

        /// Prints an informational line, unless `--quiet`.
        func inform(_ line: String) {
            if !quiet { StandardError.line(line) }
        }

        func finish() {
            meter.clear()
            signals.restore()
        }

        /// Closes the database (before a staged new file is moved into place).
        func close() {
            closeDatabase()
        }
    }

    /// Opens the database a load writes (see `destination`): a failure leaves no file, and a
    /// file that appears meanwhile is never replaced (see `perform`).
    static func openForLoading(_ database: DatabaseOptions, network: NetworkOptions, quiet: Bool, progress: Bool = true,
                               geoPackage: Bool = false, _ context: CommandContext, command: CommandSpec,
                               batch: BatchDatabase? = nil,
                               sqliteChecks: () throws -> Void = {}) throws -> (Session, StagedDatabaseFile?) {
        let opened = try database.openDestination(mustExist: false, geoPackage: geoPackage, context, command: command,
                                                  batch: batch, sqliteChecks: sqliteChecks)
        return (try session(destination: opened.destination, close: opened.close, appToken: network.appToken,
                        retries: network.retries, quiet: quiet, progress: progress, context), opened.staged)
    }

    /// Opens a database that must already exist, for a command that changes what a load made
    /// (`sync`).
    static func openExistingForLoading(_ database: DatabaseOptions, network: NetworkOptions, quiet: Bool,
                                       _ context: CommandContext, command: CommandSpec) throws -> Session {
        let opened = try database.openDestination(mustExist: true, context, command: command)
        return try session(destination: opened.destination, close: opened.close, appToken: network.appToken,
                       retries: network.retries, quiet: quiet, context)
    }

    /// Runs a load in the session: a new database file (`staged`) is moved into place when the
    /// load commits and discarded when it fails; a failure says what was not changed (`table`,
    /// or the file that was not created), a plan that does not fit is a usage error.
    static func perform<T>(_ session: Session, staged: StagedDatabaseFile?, table: String?, command: CommandSpec,
                           _ load: () throws -> T) throws -> T {
        do {
            let result = try load()
            if let staged {
                session.close()
                try staged.moveIntoPlace()
            }
            return result
        } catch {
            session.meter.clear()
            session.close()
            staged?.discard()
            if let error = error as? PlanError { throw UsageError(error.description, command: command) }
            throw LoadFailure(underlying: error, table: table, newDatabase: staged?.target)
        }
    }

    /// The app token, login and stall limit from the options and the environment; what the portal
    /// says beside the data is passed on (`PortalNotices`).
    static func httpOptions(appToken: String?, _ context: CommandContext) throws -> HTTPOptions {
        var connection = Project.Connection()
        connection.appToken = appToken
        var http = try connection.http(environment: context.environment)
        http.onResponseHead = { head, url in PortalNotices.shared.observe(head, url: url) }
        return http
    }

    /// Each retry said on standard error (`Retrying: HTTP 503 ...`), unless `--quiet`: the loads'
    /// and the requests made before a load (descriptions read ahead, plans of `--dry-run`,
    /// `status`, `refresh --locked`).
    static func retryNotices(quiet: Bool, meter: ProgressMeter? = nil) -> (@Sendable (String) -> Void)? {
        if quiet { return nil }
        let notice: @Sendable (String) -> Void = { notice in
            meter?.clear()
            StandardError.line("Retrying: " + SocloadTool.oneLine(notice))
        }
        return notice
    }

    /// `--retries`, and `$SOCLOAD_RETRY_DELAY` (seconds before the first retry; tests set 0).
    static func retryPolicy(retries: Int?, _ context: CommandContext) -> RetryPolicy {
        var connection = Project.Connection()
        connection.retries = retries
        return connection.retry(environment: context.environment)
    }

    /// A loader on `destination` wired to the terminal: progress, retry notices, Ctrl-C.
    private static func session(destination: any LoadDestination, close: @escaping () -> Void, appToken: String?,
                                retries: Int?, quiet: Bool, progress: Bool = true, _ context: CommandContext) throws -> Session {
        let http: HTTPOptions
        do { http = try httpOptions(appToken: appToken, context) } catch { close(); throw error }
        let retry = retryPolicy(retries: retries, context)
        let cancellation = LoadCancellation()
        let meter = ProgressMeter(enabled: StandardError.isTerminal && !quiet && progress)
        let report: @Sendable (LoadProgress) -> Void = { meter.report($0) }
        let retryNotice = retryNotices(quiet: quiet, meter: meter)
        let loader = DatasetLoader(destination: destination, http: http, retry: retry,
                                   cancellation: cancellation, progress: report, onRetry: retryNotice)
        let signals = SignalTrap(loader: loader)
        return Session(closeDatabase: close, loader: loader, meter: meter, quiet: quiet, signals: signals)
    }
}

/// `--page-size`: a count above zero.
struct PageSize: ExpressibleByArgument, CustomStringConvertible {
    let rows: Int

    init(rows: Int) {
        self.rows = rows
    }

    var description: String { String(rows) }

    init?(argument: String) {
        guard let value = Int(argument), value > 0 else { return nil }
        rows = value
    }

    static var expectation: String { "a number above 0" }
}

/// `--index a,b`: the columns of one index, as given (a blank name is the plan's error to report).
struct IndexColumns: ExpressibleByArgument {
    let names: [String]

    init?(argument: String) {
        names = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    static var expectation: String { "column names separated by commas" }
}

/// `--type column=type`.
struct TypeAssignment: ExpressibleByArgument {
    let column: String
    let type: LogicalType

    init?(argument: String) {
        guard let equals = argument.lastIndex(of: "="), equals != argument.startIndex,
              let type = LogicalType(name: String(argument[argument.index(after: equals)...])) else { return nil }
        column = String(argument[..<equals])
        self.type = type
    }

    static var expectation: String {
        "COLUMN=TYPE with a type among " + LogicalType.allCases.map(\.rawValue).joined(separator: ", ")
    }
}

extension DatasetAPI: ExpressibleByArgument {
    init?(argument: String) { self.init(rawValue: argument) }
    static var expectation: String { "auto, rows, soda2 or soda3" }
}

extension DataPlatform: ExpressibleByArgument {
    init?(argument: String) { self.init(name: argument) }
    static var expectation: String { "socrata, ckan, arcgis or ods" }
}

extension SchemaChangePolicy: ExpressibleByArgument {
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    static var expectation: String { "warn, fail or evolve" }
}

extension TextEncoding: ExpressibleByArgument {
    init?(argument: String) { self.init(name: argument) }
    static var expectation: String { "utf-8, latin-1 or windows-1252" }
}

extension DocumentLoadMode: ExpressibleByArgument {
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    static var expectation: String { "replace, append or upsert" }
}
