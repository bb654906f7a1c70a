import SocloadCore

/// `socload extract` through a loader (the same as `LookupExtractor` on its destination).
extension DatasetLoader {
    /// Extracts columns of a table loaded before into a lookup table: see `LookupExtractor`.
    ///
    ///     let summary = try loader.extract(Extraction(columns: ["agency"], count: true), from: "n5m4_mism")
    public func extract(_ extraction: Extraction, from tableOrDatasetID: String, strict: Bool = false) throws -> ExtractSummary {
        try LookupExtractor(destination: destination, cancellation: cancellation).extract(extraction, from: tableOrDatasetID, strict: strict)
    }
}
