/// The open-data platform a dataset is published on: it decides how the dataset is described,
/// paged and named. `socload fetch URL` knows it from the URL's form; `--platform` (and a
/// project entry's `"platform"`) says it where the URL does not.
///
///     let platform = DataPlatform(name: "opendatasoft")   // .ods
public enum DataPlatform: String, Sendable, Codable, CaseIterable {
    /// Socrata (SODA): `https://HOST/resource/abcd-1234.json`, a 4x4 id.
    case socrata
    /// CKAN's DataStore: `https://HOST/dataset/NAME/resource/ID`.
    case ckan
    /// An ArcGIS REST layer: `https://HOST/.../FeatureServer/0` (or `MapServer/0`).
    case arcgis
    /// OpenDataSoft's Explore API: `https://HOST/explore/dataset/ID/`.
    case ods

    /// The platform named `name`, or one of its usual spellings (`opendatasoft`, `esri`).
    public init?(name: String) {
        switch name.lowercased() {
        case "opendatasoft", "ods": self = .ods
        case "esri", "arcgis": self = .arcgis
        default:
            guard let platform = DataPlatform(rawValue: name.lowercased()) else { return nil }
            self = platform
        }
    }

    /// As messages name it: `CKAN`, `ArcGIS`, `OpenDataSoft`, `Socrata`.
    public var displayName: String {
        switch self {
        case .socrata: return "Socrata"
        case .ckan: return "CKAN"
        case .arcgis: return "ArcGIS"
        case .ods: return "OpenDataSoft"
        }
    }
}
