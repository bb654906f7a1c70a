import Foundation

/// SQL text with placeholders and the values to bind to them, in order.
public struct SQLFragment: Sendable, Equatable {
    public var sql: String
    public var arguments: [DatabaseValue]

    public init(sql: String, arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }
}
