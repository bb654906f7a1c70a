import SocloadCore
import SocloadDatabase

/// `--format geojson`: an RFC 7946 FeatureCollection, a Feature a row, for web maps.
///
/// The geometry comes from a pair of columns named `X_longitude` and `X_latitude` (a location
/// or point as socload stores it; or plain `longitude` / `latitude`): the first pair with both
/// numbers in the row, the first pair's columns left out of the properties. Else it comes from the
/// first column whose value is WKT (`POINT (-87.6 41.8)`, as a line or polygon is stored) or a
/// GeoJSON geometry (as SODA sends one), chosen on the first row that has one and left out of
/// the properties. Every other column is a property, typed as in `--format json`, but for a
/// GeoPackage's geometry blob (the same place again, in binary). A row without a geometry is a
/// Feature whose geometry is null.
final class GeoJSONWriter: ResultWriter {
    private let output: OutputSink
    private var keys: [String] = []
    private var pairs: [(longitude: Int, latitude: Int)] = []
    private var pair: (longitude: Int, latitude: Int)? { pairs.first }
    private var shapeColumn: Int?
    private var rowCount = 0

    init(output: OutputSink) {
        self.output = output
    }

    func begin(columns: [String]) {
        keys = JSONWriter.uniqueKeys(columns).map(JSONWriter.quoted)
        let lowered = columns.map { $0.lowercased() }
        for (index, name) in lowered.enumerated() where name == "longitude" || name.hasSuffix("_longitude") {
            let partner = String(name.dropLast("longitude".count)) + "latitude"
            if let latitude = lowered.firstIndex(of: partner) { pairs.append((index, latitude)) }
        }
        output.write("{\"type\":\"FeatureCollection\",\"features\":[")
    }

    func write(_ values: [DatabaseValue]) {
        var geometry: String?
        if !pairs.isEmpty {
            geometry = pairs.lazy.compactMap { Self.point(longitude: values[$0.longitude], latitude: values[$0.latitude]) }.first
        } else if let shapeColumn {
            geometry = Self.shape(values[shapeColumn])
        } else {
            for (index, value) in values.enumerated() {
                if let found = Self.shape(value) {
                    shapeColumn = index
                    geometry = found
                    break
                }
            }
        }
        var properties: [String] = []
        for (index, value) in values.enumerated()
        where index != pair?.longitude && index != pair?.latitude && index != shapeColumn && !Self.isGeoPackageGeometry(value) {
            properties.append(keys[index] + ":" + JSONWriter.literal(value))
        }
        let feature = "{\"type\":\"Feature\",\"geometry\":\(geometry ?? "null"),\"properties\":{\(properties.joined(separator: ","))}}"
        output.write((rowCount == 0 ? "\n" : ",\n") + feature)
        rowCount += 1
    }

    func finish() {
        output.write(rowCount == 0 ? "]}\n" : "\n]}\n")
        output.flush()
    }

    /// True for a GeoPackage geometry blob (`GeoPackageBinary`).
    static func isGeoPackageGeometry(_ value: DatabaseValue) -> Bool {
        guard case .blob(let bytes) = value else { return false }
        return bytes.withUnsafeBytes { GeoPackageBinary.header(of: $0.bindMemory(to: UInt8.self)) } != nil
    }

    /// A Point of two numbers in range; nil for NULL, text that is no number, or out of range.
    static func point(longitude: DatabaseValue, latitude: DatabaseValue) -> String? {
        guard let x = number(longitude), let y = number(latitude), abs(x) <= 180, abs(y) <= 90 else { return nil }
        return "{\"type\":\"Point\",\"coordinates\":[\(ValueText.real(x)),\(ValueText.real(y))]}"
    }

    private static func number(_ value: DatabaseValue) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .real(let real): return real.isFinite ? real : nil
        case .text(let text): return Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    /// A geometry of a WKT or GeoJSON text value; nil for anything else.
    static func shape(_ value: DatabaseValue) -> String? {
        guard case .text(let text) = value else { return nil }
        let trimmed = text.drop { $0 == " " || $0 == "\n" }
        if trimmed.first == "{" {
            let types = ["Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon"]
            guard let parsed = try? JSONValueParser.parse(Array(trimmed.utf8)), case .string(let type)? = parsed["type"],
                  types.contains(type), case .array? = parsed["coordinates"] else { return nil }
            return parsed.jsonText
        }
        guard let first = trimmed.first, first.isLetter else { return nil }
        return WKTGeometry.geoJSON(String(trimmed))
    }
}
