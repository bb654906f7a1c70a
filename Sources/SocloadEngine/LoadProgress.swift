import SocloadCore

/// How far a load has come, reported after each chunk of input.
public struct LoadProgress: Sendable, Equatable {
    public var bytesRead: Int64
    /// The size of the input when known (a file's size, or the Content-Length).
    public var bytesExpected: Int64?
    public var rowsLoaded: Int
    /// Seconds since the load started.
    public var elapsed: Double

    public init(bytesRead: Int64, bytesExpected: Int64?, rowsLoaded: Int, elapsed: Double) {
        self.bytesRead = bytesRead
        self.bytesExpected = bytesExpected
        self.rowsLoaded = rowsLoaded
        self.elapsed = elapsed
    }
}
