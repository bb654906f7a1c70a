import SocloadCore

/// A view description types a document's columns as `fetch` types the dataset's
/// (`load --metadata VIEW.json`).
extension ViewMetadata: DocumentDescription {
    /// A description from `/api/views/ID.json` bytes, refused unless it describes a table.
    static let describer: DocumentDescriber = { bytes, source in
        let view = try ViewMetadata(description: bytes, source: source)
        try view.requireTabular()
        return view
    }

    package func carrying(systemFields: Set<String>) -> any DocumentDescription {
        SODARowLayout(view: self, systemFields: systemFields).view
    }

    package func plan(excluding excludedFields: Set<String>, options: PlanOptions) throws -> LoadPlan {
        var view = self
        view.columns = view.columns.filter { !excludedFields.contains($0.fieldName ?? "") }
        return try LoadPlan.socrata(view: view, options: options)
    }

    package var datasetID: String? { id }
    package var dictionaryJSON: String { dictionaryJSON(domain: nil) }
    package var datasetDescription: String? { dictionary.description }
}
