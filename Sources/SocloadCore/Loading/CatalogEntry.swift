import Foundation

/// What socload remembers about a loaded table, in the `_socload_datasets` catalog table.
public struct CatalogEntry: Codable, Sendable, Equatable {
    public var tableName: String
    public var datasetID: String?
    public var domain: String?
    public var name: String?
    /// Where the rows came from: a URL (without credentials) or a file path.
    public var sourceURL: String
    /// ISO-8601 UTC.
    public var fetchedAt: String
    /// When the portal last changed the rows, ISO-8601 UTC.
    public var rowsUpdatedAt: String?
    public var rowCount: Int
    /// The column metadata as the portal described it.
    public var columnsJSON: String
    /// Which table columns each fieldName became.
    public var columnMappingJSON: String
    public var etag: String?
    public var lastModified: String?
    /// What was asked for (API, SoQL, limit): a table holding a filtered slice is never "up to
    /// date" for a request for the whole dataset.
    public var requestSignature: String?
    /// The load plan (tables, columns, logical types, keys, indexes) as JSON: sync, `schema` and
    /// `info` read the key and types from it, and a refresh tells socload's objects from the user's.
    public var planJSON: String?
    /// Per column, the cells that were not of its type and were stored as NULL (JSON).
    public var invalidCellsJSON: String?
    /// Why the table is not the whole dataset the portal described (`--limit`, `--where`,
    /// `--select`, a sync since): its counts cannot be checked against the portal's. nil for a
    /// complete load.
    public var partialReason: String?
    /// What the portal says about the dataset (`DatasetDictionary` as JSON) but its description,
    /// which is `datasetDescription`; nil for a load that had no portal description, or one
    /// recorded before catalog version 2. (Entries recorded before the description had a column
    /// of its own hold it here.)
    public var dictionaryJSON: String?
    /// The dataset's description as the portal gave it (the catalog's `description`), kept apart
    /// from `dictionaryJSON` so that a long one is stored and held once.
    public var datasetDescription: String?

    public init(tableName: String, datasetID: String?, domain: String?, name: String?, sourceURL: String,
                fetchedAt: String, rowsUpdatedAt: String?, rowCount: Int, columnsJSON: String,
                columnMappingJSON: String, etag: String?, lastModified: String?, requestSignature: String? = nil,
                planJSON: String? = nil, invalidCellsJSON: String? = nil, partialReason: String? = nil,
                dictionaryJSON: String? = nil, datasetDescription: String? = nil) {
        self.tableName = tableName
        self.datasetID = datasetID
        self.domain = domain
        self.name = name
        self.sourceURL = sourceURL
        self.fetchedAt = fetchedAt
        self.rowsUpdatedAt = rowsUpdatedAt
        self.rowCount = rowCount
        self.columnsJSON = columnsJSON
        self.columnMappingJSON = columnMappingJSON
        self.etag = etag
        self.lastModified = lastModified
        self.requestSignature = requestSignature
        self.planJSON = planJSON
        self.invalidCellsJSON = invalidCellsJSON
        self.partialReason = partialReason
        self.dictionaryJSON = dictionaryJSON
        self.datasetDescription = datasetDescription
    }

    /// The dataset's dictionary as recorded, with its description.
    public var dictionary: DatasetDictionary? {
        guard var dictionary = dictionaryJSON.flatMap({ try? JSONDecoder().decode(DatasetDictionary.self, from: Data($0.utf8)) })
        else { return nil }
        if let datasetDescription { dictionary.description = datasetDescription }
        return dictionary
    }

    /// The portal's column descriptions recorded with the entry.
    public var columns: [ColumnMetadata] {
        (try? JSONDecoder().decode([ColumnMetadata].self, from: Data(columnsJSON.utf8))) ?? []
    }

    /// The plan recorded with the entry (nil for tables loaded by an older socload). Its tables'
    /// `descriptions` have digests and no texts: `describedPlan` has both.
    public var plan: LoadPlan? {
        guard let planJSON else { return nil }
        return try? JSONDecoder().decode(LoadPlan.self, from: Data(planJSON.utf8))
    }

    /// The recorded plan with its descriptions' texts given back from the entry's dictionary and
    /// columns: what rebuilding a table from the plan (`extract`) needs to describe it again.
    public var describedPlan: LoadPlan? {
        guard var plan else { return nil }
        let tableText = dictionary?.description
        let columns = self.columns
        for index in plan.tables.indices {
            guard let descriptions = plan.tables[index].descriptions else { continue }
            let texts = TableDescriptions.columnTexts(of: plan.tables[index].columns, from: columns)
            plan.tables[index].descriptions = descriptions.restoringTexts(table: tableText, columns: texts)
        }
        return plan
    }

    /// The invalid-cell counts recorded with the entry.
    public var invalidCells: [InvalidCells] {
        guard let invalidCellsJSON,
              let cells = try? JSONDecoder().decode([InvalidCells].self, from: Data(invalidCellsJSON.utf8)) else { return [] }
        return cells
    }

    package enum CodingKeys: String, CodingKey {
        case tableName = "table_name", datasetID = "dataset_id", domain, name, sourceURL = "source_url"
        case fetchedAt = "fetched_at", rowsUpdatedAt = "rows_updated_at", rowCount = "row_count"
        case columnsJSON = "columns_json", columnMappingJSON = "column_mapping_json", etag
        case lastModified = "last_modified", requestSignature = "request_signature", planJSON = "plan_json"
        case invalidCellsJSON = "invalid_cells_json"
    }
}
