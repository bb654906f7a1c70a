/// A place in a plan table that a spatial database keeps as a geometry beside the columns
/// (PostGIS's `_geom` columns, a GeoPackage's geometry column): a location (its latitude and
/// longitude), a point, or a line or polygon column (WKT or GeoJSON). Each is named after its
/// column with `_geom` (a location after its address column), unique in the table.
public struct PlanGeometry: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// WKT or GeoJSON text in this plan column.
        case text(column: Int)
        /// A point from these plan columns.
        case latitudeLongitude(latitude: Int, longitude: Int)
    }

    /// The geometry column's name.
    public let name: String
    /// The plan column it comes from (a location's address column), as `--geometry` names it.
    public let sourceColumn: String
    public let source: Source
    /// The one kind every value has (a point, or what the Socrata column type says); nil: any.
    public let kind: Geometry.Kind?

    /// The places of `table`, in column order. `maximumNameBytes`: the database's limit.
    public static func all(in table: PlanTable, maximumNameBytes: Int? = nil) -> [PlanGeometry] {
        var taken = Set(table.columns.map { $0.name.lowercased() })
        func name(_ base: String) -> String {
            func shortened(_ name: String) -> String { maximumNameBytes.map { LoadPlan.shortenedName(name, toBytes: $0) } ?? name }
            var candidate = shortened(base + "_geom")
            var number = 2
            while taken.contains(candidate.lowercased()) {
                candidate = shortened(base + "_geom\(number)")
                number += 1
            }
            taken.insert(candidate.lowercased())
            return candidate
        }
        var result: [PlanGeometry] = []
        for (index, column) in table.columns.enumerated() {
            switch column.source {
            case let .part(cell, .locationLatitude, _):
                guard let longitude = table.columns.firstIndex(where: {
                    if case .part(cell, .locationLongitude, _) = $0.source { return true }
                    return false
                }) else { continue }
                let base = table.columns.first(where: {
                    if case .part(cell, .locationAddress, _) = $0.source { return true }
                    return false
                })?.name ?? column.name
                result.append(PlanGeometry(name: name(base), sourceColumn: base,
                                           source: .latitudeLongitude(latitude: index, longitude: longitude), kind: .point))
            case .part(_, .pointGeometry, _) where column.type == .geometry:
                result.append(PlanGeometry(name: name(column.name), sourceColumn: column.name, source: .text(column: index), kind: .point))
            case .field where column.type == .geometry:
                result.append(PlanGeometry(name: name(column.name), sourceColumn: column.name, source: .text(column: index),
                                           kind: column.geometryKind))
            default:
                continue
            }
        }
        return result
    }

    /// The one geometry a table keeps where it may keep one only (a GeoPackage): the column
    /// `--geometry` chose (`PlanTable.geometryColumn`), else the first place; nil: none.
    public static func chosen(in table: PlanTable, maximumNameBytes: Int? = nil) -> PlanGeometry? {
        let places = all(in: table, maximumNameBytes: maximumNameBytes)
        guard let wanted = table.geometryColumn?.lowercased() else { return places.first }
        return places.first { $0.sourceColumn.lowercased() == wanted }
    }

    /// The geometry of one row, or nil (NULL): no value, one that is not a geometry, or one
    /// of another kind than the column holds (a single shape goes into a collection of one),
    /// unless `keepingAnyKind`.
    public func geometry(row: Int, of batch: RowBatch, arena: UnsafeBufferPointer<UInt8>, keepingAnyKind: Bool = false) -> Geometry? {
        let first = row * batch.columnCount
        let geometry: Geometry?
        switch source {
        case .text(let column):
            guard case let .text(offset, length) = batch.values[first + column] else { return nil }
            geometry = Geometry(text: UnsafeBufferPointer(rebasing: arena[Int(offset)..<Int(offset + length)]))
        case let .latitudeLongitude(latitude, longitude):
            guard let lat = Self.number(batch.values[first + latitude]), let lon = Self.number(batch.values[first + longitude])
            else { return nil }
            geometry = Geometry.point(longitude: lon, latitude: lat)
        }
        guard let kind, !keepingAnyKind else { return geometry }
        return geometry?.promoted(to: kind)
    }

    /// True when the row has a value in the column the geometry comes from.
    public func hasSource(row: Int, of batch: RowBatch) -> Bool {
        let first = row * batch.columnCount
        switch source {
        case .text(let column): return !batch.values[first + column].isNull
        case let .latitudeLongitude(latitude, longitude):
            return !batch.values[first + latitude].isNull && !batch.values[first + longitude].isNull
        }
    }

    private static func number(_ value: RowBatch.Value) -> Double? {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: return nil
        }
    }
}
