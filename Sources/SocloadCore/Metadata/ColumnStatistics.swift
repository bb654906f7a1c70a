import Foundation

/// A column's statistics as the portal computed them at export time (`cachedContents`): how many
/// cells are set and empty, and the smallest and largest value. Read leniently: counts come as
/// numbers or strings, bounds as strings, numbers or booleans; a bound that is an object (a
/// location, a url) is left out, and so is anything unreadable.
public struct ColumnStatistics: Codable, Sendable, Equatable {
    public var nonNull: Int?
    public var null: Int?
    /// The bound as text: a string as it is, a number as written, a boolean as `true` / `false`.
    public var smallest: String?
    public var largest: String?

    package enum CodingKeys: String, CodingKey {
        case nonNull = "non_null", null, smallest, largest
    }

    public init(nonNull: Int? = nil, null: Int? = nil, smallest: String? = nil, largest: String? = nil) {
        self.nonNull = nonNull
        self.null = null
        self.smallest = smallest
        self.largest = largest
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nonNull = Self.count(container, .nonNull)
        null = Self.count(container, .null)
        smallest = Self.bound(container, .smallest)
        largest = Self.bound(container, .largest)
    }

    private static func count(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> Int? {
        if let number = try? container.decodeIfPresent(Int.self, forKey: key) { return number }
        if let text = try? container.decodeIfPresent(String.self, forKey: key) { return Int(text) }
        return nil
    }

    private static func bound(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) -> String? {
        if let text = try? container.decodeIfPresent(String.self, forKey: key) { return text }
        if let flag = try? container.decodeIfPresent(Bool.self, forKey: key) { return flag ? "true" : "false" }
        if let number = try? container.decodeIfPresent(Decimal.self, forKey: key) { return "\(number)" }
        return nil
    }

    /// True when the portal stated anything worth comparing.
    public var isEmpty: Bool { nonNull == nil && smallest == nil && largest == nil }
}
