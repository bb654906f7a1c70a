/// Process exit codes, following sysexits(3) so pipelines can tell failures apart.
enum ExitCode: Int32 {
    case success = 0
    /// `--fail-on` found what it names (a dataset stale, gone, moved or changed): a finding, not
    /// an error, as diff(1) exits 1 when the files differ.
    case findings = 1
    /// The command was called wrongly (unknown option, missing argument).
    case usage = 64
    /// The input data was malformed.
    case dataError = 65
    /// An input file, database or table does not exist.
    case noInput = 66
    /// The network or the remote service failed.
    case unavailable = 69
    /// A bug in socload.
    case software = 70
    /// A read-only command was asked to change the database (`query` without `--write`), or
    /// the database refused a privilege the role lacks.
    case noPermission = 77
    /// Reading or writing a file or the database failed.
    case ioError = 74
    /// A statement ran past `--timeout` and was cancelled (EX_TEMPFAIL: try again later).
    case timedOut = 75
    /// The project file (`socload.json`) is not what it must be: not JSON, an unknown key, a
    /// value of the wrong kind (EX_CONFIG).
    case configuration = 78
    /// Interrupted by SIGINT (Ctrl-C).
    case interrupted = 130
    /// Terminated by SIGTERM.
    case terminated = 143
}

/// A command failed: a one-line message and the exit code that says what kind of failure it was.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    let exitCode: ExitCode

    init(_ message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }

    var description: String { message }

    /// A table name or dataset id the catalog of the database does not know (`place`: how
    /// the database is named, `LoadedDatabase.place`).
    static func notInCatalog(_ key: String, in place: String) -> CommandFailure {
        CommandFailure("no table or dataset '\(TerminalText.escaped(key))' in the catalog of \(place)", exitCode: .noInput)
    }
}
