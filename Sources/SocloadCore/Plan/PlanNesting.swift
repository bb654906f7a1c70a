/// Where the rows of a child table come from: the elements of the array under `arrayField` in
/// each source row of the plan's first table, each made into an object of `sourceFields` (the
/// parent's key values first, then the element's position when it is numbered, then the
/// element's own members) for the converter.
public struct PlanNesting: Sendable, Codable, Equatable {
    /// The parent row's member that holds the array.
    public var arrayField: String
    /// The parent row's fields whose values are the parent's key.
    public var parentKeyFields: [String]
    /// True when each element's position in the array (from 1) is a column (and part of the key).
    public var numbersElements: Bool
    /// The fields of the objects made for the converter, in cell order: the parent's key values
    /// and the position under names of socload's own, then the elements' members.
    public var sourceFields: [String]

    public init(arrayField: String, parentKeyFields: [String], numbersElements: Bool, sourceFields: [String]) {
        self.arrayField = arrayField
        self.parentKeyFields = parentKeyFields
        self.numbersElements = numbersElements
        self.sourceFields = sourceFields
    }

    /// The name under which the made objects carry the parent's key value number `index`.
    public static func parentKeyField(_ index: Int) -> String { "_socload_parent_\(index)" }
    /// The name under which they carry the element's position.
    public static let positionField = "_socload_position"
}
