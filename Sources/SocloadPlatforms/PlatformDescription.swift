import Foundation
import SocloadCore
import SocloadFiles

/// A dataset as CKAN, ArcGIS or OpenDataSoft describes it: its columns typed from the platform's
/// own metadata, its key (CKAN's `_id`, ArcGIS's object id), the rows it counts, and the instant
/// its data last changed (the refresh signal). It types the records of the dataset's spool as a
/// Socrata view types a saved page (`DocumentDescription`), so the document job loads them.
package struct PlatformDescription: DocumentDescription {
    package var platform: DataPlatform
    /// The platform's id of the dataset (a CKAN resource id, an ArcGIS layer URL, an ODS dataset id).
    package var id: String
    package var title: String?
    package var summary: String?
    /// The described columns, in the platform's order.
    package var fields: [PlatformColumn]
    /// The field that identifies a row (the table's key unless `--pk` says another).
    package var keyField: String?
    package var rowCount: Int?
    /// When the platform says the data last changed, as it says it (nil: it does not say, and
    /// every refresh reloads the dataset).
    package var dataUpdatedAt: String?
    /// The table's name when `--table` gives none: the platform's short name, SQL-safe.
    package var tableName: String
    package var dictionary = DatasetDictionary()

    package init(platform: DataPlatform, id: String, fields: [PlatformColumn], tableName: String) {
        self.platform = platform
        self.id = id
        self.fields = fields
        self.tableName = tableName
    }

    // MARK: DocumentDescription

    package var columns: [ColumnMetadata] {
        fields.enumerated().map { index, column in
            column.metadata(position: index + 1, statedCount: column.field == keyField ? rowCount : nil)
        }
    }

    package func carrying(systemFields: Set<String>) -> any DocumentDescription { self }

    /// The main table of the described columns (their records' fields, in the platform's order),
    /// keyed by the platform's key unless the options name one.
    package func plan(excluding excludedFields: Set<String>, options: PlanOptions) throws -> LoadPlan {
        var names = ColumnNameAllocator()
        var used = Set<String>()
        var planColumns: [PlanColumn] = []
        let described = fields.filter { !excludedFields.contains($0.field) }
        var keyColumn: String?
        for (index, column) in described.enumerated() {
            let name = names.allocate(column.field.isEmpty ? "column_\(index + 1)" : column.field)
            var type = column.type
            if let given = options.typeOverrides[name] {
                type = given
                used.insert(name)
            }
            var planColumn = PlanColumn(name: name, type: type, source: .field(cell: index))
            if type == .geometry { planColumn.geometryKind = column.geometryKind }
            planColumns.append(planColumn)
            if column.field == keyField { keyColumn = name }
        }
        if let unknown = options.typeOverrides.keys.sorted().first(where: { !used.contains($0) }) {
            throw PlanError("--type \(unknown)=...: the dataset has no column '\(unknown)'")
        }
        var table = PlanTable(name: options.tableName, columns: planColumns, primaryKey: keyColumn.map { [$0] } ?? [])
        try table.apply(options)
        return LoadPlan(tables: [table], sourceFields: described.map(\.field), options: options)
    }

    package var datasetID: String? { id }
    package var name: String? { title }
    package var statedRowCount: Int? { rowCount }
    package var columnsJSON: String { LoadPlan.encode(columns) }
    package var dictionaryJSON: String {
        var dictionary = self.dictionary
        dictionary.name = dictionary.name ?? title
        dictionary.description = dictionary.description ?? summary
        return LoadPlan.encode(dictionary)
    }
    package var datasetDescription: String? { summary }

    /// A platform's short name as a table name: lower case, each run of characters other than
    /// ASCII letters and digits one `_` (`USA_ZIP_Code_Points` → `usa_zip_code_points`; accents
    /// dropped, `Équipements` → `equipements`), `t_` before a digit.
    package static func tableName(_ parts: String...) -> String {
        var name = ""
        let joined = parts.filter { !$0.isEmpty }.joined(separator: "_").folding(options: [.diacriticInsensitive], locale: nil)
        for scalar in joined.lowercased().unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar), scalar.isASCII {
                name.unicodeScalars.append(scalar)
            } else if !name.isEmpty, !name.hasSuffix("_") {
                name += "_"
            }
        }
        while name.hasSuffix("_") { name.removeLast() }
        if name.isEmpty { return "dataset" }
        return name.first!.isNumber ? "t_" + name : name
    }
}
