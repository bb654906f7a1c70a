import SocloadCore

extension LoadSpec {
    /// The dataset the spec names, found: an id on the spec's domain (else its bundled copy in
    /// `datasetsDirectory`, else in `datasetsDirectories`), a portal URL, or a rows.json file.
    public func reference(datasetsDirectories: [String] = ["Datasets"]) throws -> DatasetReference {
        guard case .dataset(let text) = source else {
            throw LoadError.unsupported("\(sourceText) is a document: load it with DatasetLoader.load(_:), not as a dataset")
        }
        return try DatasetReference.resolve(text, domain: domain,
                                            datasetsDirectories: datasetsDirectory.map { [$0] } ?? datasetsDirectories)
    }

    /// The source as written: an id, a URL, a path or `-`.
    public var sourceText: String {
        switch source {
        case .dataset(let text), .document(let text): return text
        }
    }

    /// The load of a dataset this spec asks for, with its reference found.
    package func datasetRequest(_ reference: DatasetReference) -> LoadRequest {
        LoadRequest(reference: reference, spec: self)
    }

    /// The load of a document this spec asks for.
    package func documentRequest() -> DocumentLoadRequest {
        var request = DocumentLoadRequest(source: sourceText, tableName: tableName)
        request.tableOptions = tableOptions
        request.document = document
        request.mode = mode
        return request
    }
}
