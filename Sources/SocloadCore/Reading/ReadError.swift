/// Why a read command could not do what it was asked, whatever the database.
public enum ReadError: CategorizedError, Equatable {
    /// A read-only statement would change the database.
    case changeRefused
    /// The statement's parameters do not fit it (too few, too many, named where the database
    /// takes only positions): the database's words.
    case parameters(String)
    /// `drop` refused: another table still needs this one (the reason, in words).
    case dropRefused(String)

    public var description: String {
        switch self {
        case .changeRefused: return "the statement would change the database"
        case .parameters(let message): return message
        case .dropRefused(let reason): return reason
        }
    }

    public var kind: FailureKind {
        switch self {
        case .changeRefused: return .notPermitted
        case .parameters, .dropRefused: return .usage
        }
    }
}
