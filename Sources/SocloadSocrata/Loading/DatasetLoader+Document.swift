import SocloadCore

extension DatasetLoader {
    /// Loads the document `request` names (`socload load`), replacing its table, or adding to it
    /// with `request.mode` append or upsert. Without `metadata` the column types are inferred
    /// from every value (see `FieldTypeInference`), which reads the document once before loading
    /// it; a URL or standard input is first copied to a temporary file (`onSpool` is told), so
    /// the types never depend on a sample.
    /// (`load(_ spec:)` is the public way in.)
    package func loadDocument(_ request: DocumentLoadRequest, onSpool: () -> Void = {}) throws -> LoadSummary {
        try DocumentLoadJob(context: context, request: request, describe: ViewMetadata.describer).run(onSpool: onSpool)
    }
}
