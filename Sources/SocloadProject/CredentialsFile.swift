import Foundation
import Glibc
import SocloadCore
import SocloadSocrata

/// The user's private credentials file: a Socrata app token (one token works on every Socrata
/// portal) and, for private datasets, a login — kept out of argv (which other users see in the
/// process list), shell history and project files. socload reads it only when it is private to
/// the user, as ssh reads its keys: a regular file the user owns that no one else may read or
/// write (`chmod 600`); otherwise it refuses, naming the file and the fix.
///
///     {"app-token": "...", "username": "ann@example.org", "password": "..."}
///
/// Where: `$SOCLOAD_CREDENTIALS`, else `$XDG_CONFIG_HOME/socload/credentials.json`, else
/// `~/.config/socload/credentials.json`. No file is no credentials. `--app-token`, a project's
/// `"app-token"`, `$SOCRATA_APP_TOKEN` and `$SOCRATA_USERNAME` come first: with any of them the
/// file is not read at all.
public struct CredentialsFile: Sendable, Equatable {
    public var appToken: String?
    public var username: String?
    public var password: String?

    public init(appToken: String? = nil, username: String? = nil, password: String? = nil) {
        (self.appToken, self.username, self.password) = (appToken, username, password)
    }

    /// Where the file is looked for under `environment`; nil without a home folder.
    public static func path(environment: [String: String]) -> String? {
        if let path = environment["SOCLOAD_CREDENTIALS"], !path.isEmpty { return path }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/socload/credentials.json" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/socload/credentials.json"
    }

    /// The credentials of the file `environment` points at; nil when there is no such file.
    /// Throws when it is not private to the user, or not the JSON object above.
    public static func load(environment: [String: String]) throws(CredentialsFileError) -> CredentialsFile? {
        guard let path = path(environment: environment) else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT, (environment["SOCLOAD_CREDENTIALS"] ?? "").isEmpty { return nil }
            throw CredentialsFileError(path: path, problem: "cannot be read (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw CredentialsFileError(path: path, problem: "is not a regular file") }
        guard status.st_uid == geteuid() else {
            throw CredentialsFileError(path: path, problem: "belongs to another user (uid \(status.st_uid)): "
                                       + "socload reads credentials only from a file of yours")
        }
        let others = status.st_mode & 0o077
        guard others == 0 else {
            throw CredentialsFileError(path: path, problem: "is open to others (mode \(String(status.st_mode & 0o777, radix: 8))): "
                                       + "run chmod 600 \(path) (socload reads credentials only from a file no one else can read)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CredentialsFileError(path: path, problem: "cannot be read")
        }
        guard case .object(let members)? = try? JSONValueParser.parse(Array(data)) else {
            throw CredentialsFileError(path: path, problem: "is not a JSON object like {\"app-token\": \"...\"}")
        }
        var file = CredentialsFile()
        for member in members {
            guard case .string(let value) = member.value else {
                throw CredentialsFileError(path: path, problem: "has a key \(JSONValue.quoted(member.key)) whose value is not a string")
            }
            switch member.key {
            case "app-token": file.appToken = value
            case "username": file.username = value
            case "password": file.password = value
            default:
                throw CredentialsFileError(path: path, problem: "has an unknown key \(JSONValue.quoted(member.key)) "
                                           + "(it takes \"app-token\", \"username\" and \"password\")")
            }
        }
        if file.password != nil, file.username == nil {
            throw CredentialsFileError(path: path, problem: "has a \"password\" but no \"username\"")
        }
        return file
    }
}

/// A credentials file socload will not read: one line naming it and why (exit 78).
public struct CredentialsFileError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let problem: String

    public var description: String { "the credentials file \(path) \(problem)" }
}
