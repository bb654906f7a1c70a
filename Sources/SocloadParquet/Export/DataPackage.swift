import Foundation
import Glibc
import SocloadCore

/// `datapackage.json` beside an export: a Frictionless Data Package whose resources are the
/// Parquet files of the folder, each with its schema (types, titles, descriptions, key), the
/// dataset's license and sources, so validators and catalogs read the export without socload.
/// Another export into the folder adds or replaces its own resource and keeps the others.
enum DataPackage {
    static let fileName = "datapackage.json"

    /// The Frictionless field type of a column.
    static func type(of kind: ExportColumn.Kind) -> String {
        switch kind {
        case .text, .bytes: return "string"
        case .json: return "any"
        case .integer: return "integer"
        case .double, .decimal: return "number"
        case .boolean: return "boolean"
        case .date: return "date"
        case .timestamp: return "datetime"
        }
    }

    /// A name as a package or resource name may be: lower-case letters, digits, `-`, `_`, `.`.
    static func name(_ text: String) -> String {
        let name = String(text.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "-" })
        return name.isEmpty ? "data" : name
    }

    /// Writes (or updates) the package of the folder `path` is in with the resource of `path`.
    /// Returns a note when an existing `datapackage.json` is not one and was left as it was.
    static func add(path: String, columns: [ExportColumn], geometries: [GeoColumn] = [], keyColumns: [String], entry: CatalogEntry?,
                    dictionary: ColumnDictionary?) throws -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let packagePath = (folder.isEmpty ? "." : folder) + "/" + fileName
        var others: [JSONValue] = []
        var package: [JSONMember] = []
        let resourceName = name(((path as NSString).lastPathComponent as NSString).deletingPathExtension)
        if let data = FileManager.default.contents(atPath: packagePath) {
            guard case .object(let members)? = try? JSONValueParser.parse(Array(data)) else {
                return "\(packagePath) is not a data package (not a JSON object), so it was left as it was"
            }
            package = members.filter { $0.key != "resources" }
            if case .array(let resources)? = members.first(where: { $0.key == "resources" })?.value {
                others = resources.filter { resource in
                    guard case .object(let fields) = resource, case .string(let name)? = fields.first(where: { $0.key == "name" })?.value
                    else { return true }
                    return name != resourceName
                }
            }
        }
        if package.isEmpty {
            let folderName = ((folder.isEmpty ? FileManager.default.currentDirectoryPath : folder) as NSString).standardizingPath
            package = [JSONMember(key: "profile", value: .string("data-package")),
                       JSONMember(key: "name", value: .string(name((folderName as NSString).lastPathComponent)))]
        }
        let resource = self.resource(name: resourceName, file: (path as NSString).lastPathComponent, columns: columns,
                                     geometries: geometries, keyColumns: keyColumns, entry: entry, dictionary: dictionary)
        let text = JSONValue.object(package + [JSONMember(key: "resources", value: .array(others + [resource]))]).jsonText + "\n"
        let temporary = packagePath + ".socload-\(getpid()).part"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)), rename(temporary, packagePath) == 0 else {
            unlink(temporary)
            throw ParquetWriteError.file(path: packagePath, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        return nil
    }

    private static func resource(name: String, file: String, columns: [ExportColumn], geometries: [GeoColumn], keyColumns: [String],
                                 entry: CatalogEntry?, dictionary: ColumnDictionary?) -> JSONValue {
        func text(_ key: String, _ value: String?) -> [JSONMember] { value.map { [JSONMember(key: key, value: .string($0))] } ?? [] }
        let facts = entry?.dictionary
        var members = [JSONMember(key: "name", value: .string(name)), JSONMember(key: "path", value: .string(file)),
                       JSONMember(key: "profile", value: .string("tabular-data-resource")),
                       JSONMember(key: "format", value: .string("parquet")),
                       JSONMember(key: "mediatype", value: .string("application/vnd.apache.parquet"))]
        members += text("title", facts?.name ?? entry?.name)
        members += text("description", facts?.description ?? entry?.datasetDescription)
        if let license = facts?.license ?? facts?.licenseID {
            members.append(JSONMember(key: "licenses", value: .array([.object(
                [JSONMember(key: "name", value: .string(self.name(facts?.licenseID ?? license)))] + text("title", license))])))
        }
        var sources: [JSONValue] = []
        if let attribution = facts?.attribution {
            sources.append(.object(text("title", attribution) + text("path", facts?.attributionLink)))
        }
        if let page = facts?.pageURL {
            sources.append(.object(text("title", "The dataset's page on its portal") + text("path", page)))
        }
        if let entry {
            sources.append(.object(text("title", "Where socload loaded it from (rowsUpdatedAt \(entry.rowsUpdatedAt ?? "unknown"))")
                                   + text("path", CredentialRedaction.url(entry.sourceURL))))
        }
        if !sources.isEmpty { members.append(JSONMember(key: "sources", value: .array(sources))) }
        let fields = columns.map { column -> JSONValue in
            let described = dictionary?.column(named: column.name)
            var field = [JSONMember(key: "name", value: .string(column.name)), JSONMember(key: "type", value: .string(type(of: column.kind)))]
            field += text("title", described?.displayName)
            field += text("description", described?.description)
            if column.required { field.append(JSONMember(key: "constraints", value: .object([JSONMember(key: "required", value: .bool(true))]))) }
            return .object(field)
        }
        // GeoParquet's columns: the geometry as WKB, its box as a struct.
        let geometryFields = geometries.flatMap { geometry -> [JSONValue] in [
            .object([JSONMember(key: "name", value: .string(geometry.name)), JSONMember(key: "type", value: .string("any")),
                     JSONMember(key: "description", value: .string("The geometry as WKB, longitude and latitude (GeoParquet, OGC:CRS84)"))]),
            .object([JSONMember(key: "name", value: .string(geometry.bboxName)), JSONMember(key: "type", value: .string("object")),
                     JSONMember(key: "description", value: .string("The bounding box of \(geometry.name): xmin, ymin, xmax, ymax"))]),
        ] }
        // "nan": how pandas, which frictionless reads Parquet with, hands it a NULL of a
        // column of whole numbers.
        var schema = [JSONMember(key: "fields", value: .array(fields + geometryFields)),
                      JSONMember(key: "missingValues", value: .array([.string(""), .string("nan")]))]
        if !keyColumns.isEmpty { schema.append(JSONMember(key: "primaryKey", value: .array(keyColumns.map(JSONValue.string)))) }
        members.append(JSONMember(key: "schema", value: .object(schema)))
        return .object(members)
    }
}
