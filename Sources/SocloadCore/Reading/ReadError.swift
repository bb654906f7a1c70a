/// Why a read command could not do what it was asked, whatever the database.
public enum ReadError: CategorizedError, Equatable {
    /// A read-only statement would change the database.
    case changeRefused
    /// The statement's parameters do not fit it (too few, too many, named where the database
    /// takes only positions): the database's words.
    case parameters(String)
    /// `drop` refused: other tables use this one (as a lookup, a child table, or through a
    /// foreign key).
    case inUse(String, by: [String])
    /// `drop` refused: the name is socload's catalog or one of the database's own tables (`what`
    /// says which, in words).
    case notALoadedTable(String, what: String)

    public var description: String {
        switch self {
        case .changeRefused:
            return "the statement would change the database"
        case .parameters(let message):
            return message
        case let .inUse(name, users):
            return "\(name) is used by \(users.shortList()) (a lookup, a child table or a foreign key points at it): "
                + "drop \(users.count == 1 ? "that table" : "those tables") first; socload never drops what others use"
        case let .notALoadedTable(name, what):
            return "'\(name)' is \(what), not a loaded table"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .changeRefused: return .notPermitted
        case .parameters, .inUse, .notALoadedTable: return .usage
        }
    }
}
