import SocloadCore

/// A description of a document's columns from elsewhere (`load --metadata VIEW`: a portal's
/// description of the dataset the document was exported from): the columns its records are
/// named and typed by, the plan they make, and what the catalog keeps of it. A portal's source
/// gives one (Socrata's `/api/views/ID.json`); the document job knows nothing of the portal.
package protocol DocumentDescription: Sendable {
    /// The described columns, system fields included when the records carry them.
    var columns: [ColumnMetadata] { get }
    /// The description for records that carry only these of the system fields (`:id`,
    /// `:created_at`, `:updated_at`): a page saved the ordinary way has none.
    func carrying(systemFields: Set<String>) -> any DocumentDescription
    /// The plan of the described columns but `excludedFields` (fields that became child tables).
    func plan(excluding excludedFields: Set<String>, options: PlanOptions) throws -> LoadPlan
    /// What the catalog keeps of the description.
    var datasetID: String? { get }
    var name: String? { get }
    /// The rows the description counts, when it does.
    var statedRowCount: Int? { get }
    var columnsJSON: String { get }
    var dictionaryJSON: String { get }
    var datasetDescription: String? { get }
}

/// Reads a description's bytes (`source` names it in messages).
package typealias DocumentDescriber = @Sendable (_ bytes: [UInt8], _ source: String) throws -> any DocumentDescription

/// The system fields of SODA records, as a saved page carries them.
package enum DocumentSystemFields {
    package static let all = [":id", ":created_at", ":updated_at"]
}
