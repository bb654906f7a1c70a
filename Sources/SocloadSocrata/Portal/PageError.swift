import SocloadCore

/// A SODA page whose transfer failed: the HTTP failure, and which page it was.
public struct PageError: CategorizedError, Equatable {
    /// The 1-based page number.
    public let number: Int
    public let underlying: HTTPError

    public init(number: Int, underlying: HTTPError) {
        self.number = number
        self.underlying = underlying
    }

    public var description: String { "\(underlying) (page \(number))" }
    public var kind: FailureKind { .unavailable }
}
