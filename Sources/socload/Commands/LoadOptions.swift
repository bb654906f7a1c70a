import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadSQLite

/// What `fetch` and `sync` share: the database, credentials, retries, signals and progress.
enum LoadOptions {
    /// An open database and a loader wired to the terminal: progress, retry notices, Ctrl-C.
    final class Session {
        let queue: DatabaseQueue
        let loader: DatasetLoader
        let meter: ProgressMeter
        private let signals: SignalTrap

        init(queue: DatabaseQueue, loader: DatasetLoader, meter: ProgressMeter, signals: SignalTrap) {
            self.queue = queue
            self.loader = loader
            self.meter = meter
            self.signals = signals
        }

        func finish() {
            meter.clear()
            signals.restore()
        }
    }

    /// The app token, login and stall limit from the options and the environment.
    static func httpOptions(_ arguments: ParsedArguments, _ context: CommandContext) -> HTTPOptions {
        let environment = context.environment
        var http = HTTPOptions(appToken: arguments.value("app-token") ?? environment["SOCRATA_APP_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        if let seconds = environment["SOCLOAD_LOW_SPEED_TIME"].flatMap(Int.init) { http.lowSpeedTime = seconds }
        if let username = environment["SOCRATA_USERNAME"], !username.isEmpty {
            http.credentials = Credentials(username: username, password: environment["SOCRATA_PASSWORD"] ?? "")
        }
        return http
    }

    static func session(_ arguments: ParsedArguments, _ context: CommandContext, command: CommandSpec) throws -> Session {
        let environment = context.environment
        let http = httpOptions(arguments, context)
        var retry = RetryPolicy()
        if let retries = try nonNegativeInteger(arguments, "retries", command: command) { retry.maximumRetries = retries }
        if let delay = environment["SOCLOAD_RETRY_DELAY"].flatMap(Double.init) {
            retry.baseDelay = delay
            retry.maximumRetryAfter = max(delay * 10, 0)
        }
        let quiet = arguments.flag("quiet")
        let queue = try DatabaseQueue(path: DatabaseOption.path(arguments, context))
        SQLLogFile.attach(to: queue, environment: environment)
        let cancellation = LoadCancellation()
        let signals = SignalTrap(cancellation: cancellation)
        let meter = ProgressMeter(enabled: StandardError.isTerminal && !quiet)
        let loader = DatasetLoader(destination: SQLiteDestination(queue: queue), http: http, retry: retry,
                                   cancellation: cancellation, progress: meter.report,
                                   onRetry: quiet ? nil : { notice in
                                       meter.clear()
                                       StandardError.line("Retrying: " + SocloadTool.oneLine(notice))
                                   })
        return Session(queue: queue, loader: loader, meter: meter, signals: signals)
    }

    static func positiveInteger(_ arguments: ParsedArguments, _ name: String, command: CommandSpec) throws -> Int? {
        guard let value = try nonNegativeInteger(arguments, name, command: command) else { return nil }
        guard value > 0 else { throw UsageError("--\(name) takes a number above 0", command: command) }
        return value
    }

    static func nonNegativeInteger(_ arguments: ParsedArguments, _ name: String, command: CommandSpec) throws -> Int? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw UsageError("--\(name) takes a whole number, not '\(text)'", command: command)
        }
        return value
    }
}
