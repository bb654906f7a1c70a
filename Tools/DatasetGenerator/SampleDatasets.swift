import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadToolKit

/// The bundled sample datasets: synthetic, deterministic, and together covering every column type.
enum SampleDatasets {
    static let epoch2015 = 1_420_070_400 // 2015-01-01T00:00:00Z

    static func all() -> [(file: String, text: String)] {
        [("n5m4-mism.json", nominations()), ("ci7y-pmts.json", permits()), ("geo5-shps.json", shapes())]
    }

    static func string(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    static func guid(_ random: inout SeededGenerator) -> String {
        let hex = Array("0123456789ABCDEF")
        let groups = [8, 4, 4, 4, 12].map { count in String((0..<count).map { _ in hex[random.int(0...15)] }) }
        return groups.joined(separator: "-")
    }

    static func rowID(_ random: inout SeededGenerator) -> String {
        let letters = Array("abcdefghijkmnpqrstuvwxyz23456789")
        let part = { (random: inout SeededGenerator) in String((0..<4).map { _ in letters[random.int(0...letters.count - 1)] }) }
        return "row-\(part(&random))_\(part(&random)).\(part(&random))"
    }

    static func isoDate(_ seconds: Int) -> String {
        var text = ISO8601Timestamp.format(.init(timeIntervalSince1970: Double(seconds)))
        text.removeLast() // calendar dates carry no zone
        return text
    }

    /// White House nominations and appointments, old backend (system columns without colons).
    static func nominations() -> String {
        var random = SeededGenerator(seed: 0x6e35_6d34)
        let first = ["Mary", "James", "Zoë", "José", "Ana", "Robert \"Bob\"", "Li", "Søren", "Aisha", "Daniel",
                     "Émilie", "Kwame", "Olga", "Patrick", "Yuki", "Fatima"]
        let last = ["Smith", "O'Neil", "Müller", "Álvarez", "Nguyen", "Johnson", "李", "Kowalski", "Okafor",
                    "García", "Brown", "Åström", "Dubois", "Haddad"]
        let positions = ["Ambassador to France", "Assistant Secretary of State", "Judge, U.S. District Court",
                         "Member, National Science Board", "Under Secretary of Defense", "U.S. Attorney",
                         "Commissioner, FCC", "Inspector General"]
        let agencies = [("State", "https://www.state.gov"), ("Defense", "https://www.defense.gov"),
                        ("Justice", "https://www.justice.gov"), ("Treasury", "https://home.treasury.gov"),
                        ("Commerce", "https://www.commerce.gov"), ("Agriculture", "https://www.usda.gov")]
        let statuses = ["Confirmed", "Pending", "Withdrawn", "Returned to the President"]
        let writer = RowsJSONWriter(
            id: "n5m4-mism", name: "White House Nominations & Appointments (synthetic)", newBackend: false,
            rowsUpdatedAt: epoch2015 + 86_400 * 90,
            columns: RowsJSONWriter.systemColumns(colon: false) + [
                .init(name: "Name", fieldName: "name", dataTypeName: "text"),
                .init(name: "Position", fieldName: "position", dataTypeName: "text"),
                .init(name: "Agency", fieldName: "agency", dataTypeName: "drop_down_list"),
                .init(name: "Agency URL", fieldName: "agency_url", dataTypeName: "url", subColumnTypes: ["url", "description"]),
                .init(name: "Nomination Date", fieldName: "nomination_date", dataTypeName: "calendar_date"),
                .init(name: "Confirmation Date", fieldName: "confirmation_date", dataTypeName: "calendar_date"),
                .init(name: "Confirmation Vote", fieldName: "confirmation_vote", dataTypeName: "number"),
                .init(name: "Holdover", fieldName: "holdover", dataTypeName: "checkbox"),
                .init(name: "Status", fieldName: "status", dataTypeName: "text"),
            ])
        var rows: [[JSONValue]] = []
        for index in 1...300 {
            let created = epoch2015 + index * 3_600
            let agency = random.pick(agencies)
            let status = random.pick(statuses)
            let nominated = epoch2015 - random.int(0...700) * 86_400
            let confirmed = status == "Confirmed" ? nominated + random.int(20...200) * 86_400 : nil
            let url: JSONValue = random.chance(0.15) ? .array([.null, .null])
                : .array([.string(agency.1), random.chance(0.5) ? .string("Department of \(agency.0)") : .null])
            rows.append([
                .number(String(index)), .string(guid(&random)), .number(String(index)), .number(String(created)),
                .string("706288"), .number(String(created)), .string("706288"), .string("{\n}"),
                .string("\(random.pick(first)) \(random.pick(last))"), .string(random.pick(positions)),
                .string(agency.0), url, .string(isoDate(nominated)), string(confirmed.map(isoDate)),
                confirmed == nil ? .null : .string(String(random.int(51...100)) + (random.chance(0.5) ? ".000000" : "")),
                .bool(random.chance(0.2)), .string(status),
            ])
        }
        return writer.document(rows: rows)
    }

    /// City permits, new backend: money, percent, stars, double, email, html, flag, fixed
    /// timestamps, location, phone and point.
    static func permits() -> String {
        var random = SeededGenerator(seed: 0xc17e)
        let streets = ["Main St", "Rue de l'Église", "Königstraße", "Elm Ave", "Market St", "大街"]
        let kinds = ["Electrical", "Plumbing", "Demolition", "New construction", "Sign, \"neon\""]
        let writer = RowsJSONWriter(
            id: "ci7y-pmts", name: "Building Permits (synthetic)", newBackend: true,
            rowsUpdatedAt: epoch2015 + 86_400 * 200,
            columns: RowsJSONWriter.systemColumns(colon: true) + [
                .init(name: "Permit Number", fieldName: "permit_number", dataTypeName: "text"),
                .init(name: "Kind", fieldName: "kind", dataTypeName: "text"),
                .init(name: "Notes", fieldName: "notes", dataTypeName: "html"),
                .init(name: "Contact", fieldName: "contact_email", dataTypeName: "email"),
                .init(name: "Flag", fieldName: "flag", dataTypeName: "flag"),
                .init(name: "Fee", fieldName: "fee", dataTypeName: "money"),
                .init(name: "Valuation", fieldName: "valuation", dataTypeName: "number"),
                .init(name: "Completion", fieldName: "completion", dataTypeName: "percent"),
                .init(name: "Rating", fieldName: "rating", dataTypeName: "stars"),
                .init(name: "Density", fieldName: "density", dataTypeName: "double"),
                .init(name: "Approved", fieldName: "approved", dataTypeName: "checkbox"),
                .init(name: "Applied", fieldName: "applied_date", dataTypeName: "calendar_date"),
                .init(name: "Issued", fieldName: "issued_at", dataTypeName: "date"),
                .init(name: "Site", fieldName: "site", dataTypeName: "location",
                      subColumnTypes: ["human_address", "latitude", "longitude", "machine_address", "needs_recoding"]),
                .init(name: "Website", fieldName: "website", dataTypeName: "url"),
                .init(name: "Phone", fieldName: "phone", dataTypeName: "phone", subColumnTypes: ["phone_number", "phone_type"]),
                .init(name: "Point", fieldName: "point", dataTypeName: "point"),
            ])
        var rows: [[JSONValue]] = []
        for index in 1...120 {
            let created = epoch2015 + index * 7_200
            let latitude = String(format: "%.5f", 47.5 + Double(random.int(0...20_000)) / 100_000)
            let longitude = String(format: "%.5f", -122.4 + Double(random.int(0...20_000)) / 100_000)
            let address = "{\"address\": \"\(random.int(1...999)) \(random.pick(streets))\", \"city\": \"Seattle\", \"state\": \"WA\", \"zip\": \"98101\"}"
            let site: JSONValue = random.chance(0.1) ? .array([.null, .null, .null, .null, .bool(false)])
                : .array([.string(address), .string(latitude), .string(longitude), .null, .bool(false)])
            let fee = random.int(0...250_000)
            let feeText = "$" + grouped(fee / 100) + "." + format2(fee % 100)
            let issuedSeconds = created + random.int(1...90) * 86_400
            let issued: JSONValue = switch index % 3 {
            case 0: .number(String(issuedSeconds))
            case 1: .string(ISO8601Timestamp.format(.init(timeIntervalSince1970: Double(issuedSeconds))).replacingOccurrences(of: "Z", with: "-07:00"))
            default: random.chance(0.3) ? .null : .string(String(issuedSeconds))
            }
            let density: JSONValue = switch index % 17 {
            case 0: .string("NaN")
            case 1: .string("Infinity")
            default: .string(String(Double(random.int(1...99_999)) / 1000))
            }
            rows.append([
                .string(rowID(&random)), .string("00000000-0000-0000-\(String(format4(index)))-\(String(format12(index * 7919)))"),
                .number("0"), .number(String(created)), .null, .number(String(created + 600)), .null, .string("{ }"),
                .string(String(format: "P-%05d", index)), .string(random.pick(kinds)),
                random.chance(0.3) ? .null : .string("<p>Inspected &amp; <b>approved</b></p>\nline two"),
                .string("owner\(index)@example.org"), random.chance(0.8) ? .null : .string("REVIEW"),
                .string(feeText), .string(String(random.int(1_000...900_000)) + ".000000"),
                .string(String(random.int(0...100))), .string(String(random.int(1...5))), density,
                random.chance(0.1) ? .null : .bool(random.chance(0.6)),
                .string(isoDate(created)), issued, site,
                random.chance(0.2) ? .array([.null, .null]) : .array([.string("https://permits.example.org/\(index)"), .string("Permit \(index)")]),
                random.chance(0.3) ? .null : .array([.string("206-555-\(String(format4(index)))"), .string(random.pick(["Work", "Cell", "Main"]))]),
                random.chance(0.1) ? .null : .string("POINT (\(longitude) \(latitude))"),
            ])
        }
        return writer.document(rows: rows)
    }

    /// Shapes and structured values: WKT geometries, GeoJSON points, photo, document, nested
    /// tables, lists, objects, JSON, an unknown type, and a field whose name collides with a
    /// generated one.
    static func shapes() -> String {
        var random = SeededGenerator(seed: 0x9e05)
        let writer = RowsJSONWriter(
            id: "geo5-shps", name: "Parks and Shapes (synthetic)", newBackend: true,
            rowsUpdatedAt: epoch2015 + 86_400 * 300,
            columns: RowsJSONWriter.systemColumns(colon: true) + [
                .init(name: "Park", fieldName: "park", dataTypeName: "text"),
                .init(name: "Shape", fieldName: "shape", dataTypeName: "point"),
                .init(name: "Shape Latitude", fieldName: "shape_latitude", dataTypeName: "text"),
                .init(name: "Trail", fieldName: "trail", dataTypeName: "line"),
                .init(name: "Boundary", fieldName: "boundary", dataTypeName: "polygon"),
                .init(name: "Parcels", fieldName: "parcels", dataTypeName: "multipolygon"),
                .init(name: "Paths", fieldName: "paths", dataTypeName: "multiline"),
                .init(name: "Benches", fieldName: "benches", dataTypeName: "multipoint"),
                .init(name: "Photo", fieldName: "photo", dataTypeName: "photo"),
                .init(name: "Plan", fieldName: "plan", dataTypeName: "document"),
                .init(name: "Inspections", fieldName: "inspections", dataTypeName: "nested_table"),
                .init(name: "Tags", fieldName: "tags", dataTypeName: "list"),
                .init(name: "Attributes", fieldName: "attributes", dataTypeName: "object"),
                .init(name: "Extra", fieldName: "extra", dataTypeName: "json"),
                .init(name: "Mystery", fieldName: "mystery", dataTypeName: "hologram"),
            ])
        var rows: [[JSONValue]] = []
        for index in 1...40 {
            let created = epoch2015 + index * 86_400
            let x = String(format: "%.4f", -122.3 + Double(index) / 1000)
            let y = String(format: "%.4f", 47.6 + Double(index) / 2000)
            let x1 = String(format: "%.4f", -122.29 + Double(index) / 1000)
            let y1 = String(format: "%.4f", 47.61 + Double(index) / 2000)
            let point: JSONValue = index % 2 == 0
                ? .string("POINT (\(x) \(y))")
                : .object([JSONMember(key: "type", value: .string("Point")),
                           JSONMember(key: "coordinates", value: .array([.number(x), .number(y)]))])
            rows.append([
                .string(rowID(&random)), .string("00000000-0000-0000-0000-\(String(format12(index)))"), .number("0"),
                .number(String(created)), .null, .number(String(created)), .null, .string("{ }"),
                .string("Park №\(index) – \(random.pick(["Green Lake", "Volunteer", "Discovery", "Gas Works"]))"),
                index == 7 ? .null : point, .string("label \(index)"),
                .string("LINESTRING (\(x) \(y), \(x1) \(y1))"),
                .string("POLYGON ((\(x) \(y), \(x1) \(y), \(x1) \(y1), \(x) \(y)))"),
                .string("MULTIPOLYGON (((\(x) \(y), \(x1) \(y), \(x) \(y1), \(x) \(y))))"),
                .string("MULTILINESTRING ((\(x) \(y), \(x1) \(y)))"),
                .string("MULTIPOINT ((\(x) \(y)), (\(x1) \(y1)))"),
                random.chance(0.5) ? .null : .object([JSONMember(key: "file_id", value: .string("f\(index)")),
                                                      JSONMember(key: "filename", value: .string("park-\(index).jpg"))]),
                .object([JSONMember(key: "file_id", value: .string("d\(index)")),
                         JSONMember(key: "filename", value: .string("plan \"v\(index)\".pdf")),
                         JSONMember(key: "content_type", value: .string("application/pdf"))]),
                .array([.array([.string("2015-03-0\(index % 9 + 1)"), .bool(index % 2 == 0)])]),
                .array([.string("trees"), .string(index % 3 == 0 ? "dogs allowed" : "quiet")]),
                .object([JSONMember(key: "area_m2", value: .number(String(index * 1250))),
                         JSONMember(key: "lit", value: .bool(index % 4 == 0))]),
                index % 5 == 0 ? .null : .object([JSONMember(key: "note", value: .string("ünïcode ✓ \(index)"))]),
                .array([.number(String(index)), .string("x")]),
            ])
        }
        return writer.document(rows: rows)
    }

    /// `1234567` → `1,234,567`, as money columns arrive.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }

    static func format2(_ value: Int) -> String { pad(value, 2) }
    static func format4(_ value: Int) -> String { pad(value, 4) }
    static func format12(_ value: Int) -> String { pad(value, 12) }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
