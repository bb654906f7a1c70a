import Foundation
import SocloadDatabase
import SocloadSocrata
import SocloadToolKit

/// The benchmark's synthetic dataset: N rows in realistic proportions, written as a rows.json
/// export and, row for row, as the CSV of the values socload stores (the input for the sqlite3
/// shell's `.import`, the reference). Seeded: the same N and shape give the same bytes.
///
/// Two shapes, as real portals export them:
/// - `new`: the new backend: `:sid` row ids (`row-k3x9.2fma`), compact, one row a line;
/// - `legacy`: the old backend: integer `sid`, GUID `id` (the row id), numbers as strings, url
///   and phone columns as 2-element arrays, locations as 5-element arrays whose first element is
///   the address as a JSON string, pretty printed (`[ 1, "…", … ]`, a newline before each row).
/// Row ids are random (not in sort order, as real ones are) unless `sortedIDs`.
enum BenchmarkDataset {
    enum Shape: String, CaseIterable {
        case new, legacy
    }

    static let id = "bnch-0001"
    static let epoch = 1_420_070_400

    static let userColumns: [RowsJSONWriter.Column] = [
        .init(name: "Name", fieldName: "name", dataTypeName: "text"),
        .init(name: "Description", fieldName: "description", dataTypeName: "text"),
        .init(name: "Category", fieldName: "category", dataTypeName: "drop_down_list"),
        .init(name: "Amount", fieldName: "amount", dataTypeName: "number"),
        .init(name: "Price", fieldName: "price", dataTypeName: "money"),
        .init(name: "Percent", fieldName: "percent", dataTypeName: "percent"),
        .init(name: "Opened", fieldName: "opened", dataTypeName: "calendar_date"),
        .init(name: "Active", fieldName: "active", dataTypeName: "checkbox"),
        .init(name: "Website", fieldName: "website", dataTypeName: "url", subColumnTypes: ["url", "description"]),
        .init(name: "Site", fieldName: "site", dataTypeName: "location",
              subColumnTypes: ["human_address", "latitude", "longitude", "machine_address", "needs_recoding"]),
        .init(name: "Phone", fieldName: "phone", dataTypeName: "phone", subColumnTypes: ["phone_number", "phone_type"]),
        .init(name: "Visits", fieldName: "visits", dataTypeName: "number"),
        .init(name: "Score", fieldName: "score", dataTypeName: "double"),
        .init(name: "Notes", fieldName: "notes", dataTypeName: "text"),
        .init(name: "City", fieldName: "city", dataTypeName: "text"),
        .init(name: "Zip", fieldName: "zip", dataTypeName: "text"),
        .init(name: "Inspected", fieldName: "inspected_at", dataTypeName: "date"),
        .init(name: "Status", fieldName: "status", dataTypeName: "text"),
    ]

    /// The table's columns, in order: the CSV header, and the sqlite3 reference table (which has
    /// no index at all: the strictest reference).
    static let tableColumns: [(String, String)] = [
        ("_id", "TEXT"), ("_created_at", "TEXT"), ("_updated_at", "TEXT"), ("name", "TEXT"),
        ("description", "TEXT"), ("category", "TEXT"), ("amount", "NUMERIC"), ("price", "NUMERIC"),
        ("percent", "NUMERIC"), ("opened", "TEXT"), ("active", "INTEGER"), ("website", "TEXT"),
        ("website_description", "TEXT"), ("site", "TEXT"), ("site_latitude", "REAL"), ("site_longitude", "REAL"),
        ("phone", "TEXT"), ("phone_type", "TEXT"), ("visits", "NUMERIC"), ("score", "REAL"), ("notes", "TEXT"),
        ("city", "TEXT"), ("zip", "TEXT"), ("inspected_at", "TEXT"), ("status", "TEXT"),
    ]

    /// The files' common path, without extension: `bench-N` or `bench-N-legacy` (`-sorted` added
    /// for sorted ids).
    static func baseName(rows count: Int, shape: Shape, sortedIDs: Bool) -> String {
        "bench-\(count)" + (shape == .legacy ? "-legacy" : "") + (sortedIDs ? "-sorted" : "")
    }

    /// Writes `<directory>/<base>.rows.json`, `<base>.csv` and `<base>.schema.sql`; for the new
    /// shape also the same rows as SODA 2.1 returns them, one object a line (`<base>.soda.ndjson`),
    /// and the dataset's description (`<base>.view.json`), which `socload-datasets serve-soda` serves.
    static func write(rows count: Int, to directory: String, shape: Shape, sortedIDs: Bool) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = (directory as NSString).appendingPathComponent(baseName(rows: count, shape: shape, sortedIDs: sortedIDs))
        let json = try BufferedFile(path: base + ".rows.json")
        let csv = try BufferedFile(path: base + ".csv")
        let soda = shape == .new ? try BufferedFile(path: base + ".soda.ndjson") : nil
        let legacy = shape == .legacy
        let writer = RowsJSONWriter(id: id, name: "Benchmark (synthetic)", newBackend: !legacy,
                                    rowsUpdatedAt: epoch, columns: RowsJSONWriter.systemColumns(colon: !legacy) + userColumns)
        let header = writer.document(rows: [])
        json.write(String(header.dropLast(4))) // everything up to the empty data array's "\n]}\n"
        csv.write(tableColumns.map(\.0).joined(separator: ",") + "\n")
        var random = SeededGenerator(seed: 0xbe4c_0001)
        for index in 0..<count {
            let (cells, values) = row(index, shape: shape, sortedIDs: sortedIDs, &random)
            if legacy {
                json.write((index == 0 ? "\n" : "\n, ") + pretty(.array(cells)))
            } else {
                json.write((index == 0 ? "\n" : ",\n") + JSONValue.array(cells).jsonText)
            }
            csv.write(values.map(csvField).joined(separator: ",") + "\n")
            soda?.write(sodaObject(cells).jsonText + "\n")
        }
        json.write("\n]}\n")
        try json.close()
        try csv.close()
        try soda?.close()
        if shape == .new {
            try Data(writer.view.jsonText.utf8).write(to: URL(fileURLWithPath: base + ".view.json"))
        }
        let create = "CREATE TABLE \"\(LoadPlan.tableName(forDatasetID: id))\" ("
            + tableColumns.map { "\"\($0.0)\" \($0.1)" }.joined(separator: ", ") + ");\n"
        try Data(create.utf8).write(to: URL(fileURLWithPath: base + ".schema.sql"))
        return base
    }

    /// A new-shape row as SODA 2.1 returns it with `$select=:*, *`: an object with `:id`,
    /// `:created_at`, `:updated_at` and the non-null fields; timestamps as ISO text with
    /// milliseconds, compound values as objects, money without `$` and `,`.
    static func sodaObject(_ cells: [JSONValue]) -> JSONValue {
        func iso(_ cell: JSONValue, zone: Bool) -> JSONValue {
            guard case .number(let text) = cell, let seconds = Int(text) else { return cell }
            let formatted = String(BenchmarkDataset.iso(seconds).dropLast()) + ".000"
            return .string(zone ? formatted + "Z" : formatted)
        }
        var members = [JSONMember(key: ":id", value: cells[0]), JSONMember(key: ":created_at", value: iso(cells[3], zone: true)),
                       JSONMember(key: ":updated_at", value: iso(cells[5], zone: true))]
        for (column, cell) in zip(userColumns, cells.dropFirst(8)) {
            var value = cell
            switch (column.dataTypeName, cell) {
            case (_, .null): continue
            case ("money", .string(let text)):
                value = .string(text.replacingOccurrences(of: "$", with: "").replacingOccurrences(of: ",", with: ""))
            case ("calendar_date", .string(let text)): value = .string(text + ".000")
            case ("date", _): value = iso(cell, zone: true)
            case ("url", .array(let parts)), ("phone", .array(let parts)), ("location", .array(let parts)):
                let names = column.subColumnTypes ?? []
                let kept = zip(names, parts).filter { !$0.1.isNull && ["url", "description", "phone_number", "phone_type",
                                                                       "human_address", "latitude", "longitude"].contains($0.0) }
                if kept.isEmpty { continue }
                value = .object(kept.map { JSONMember(key: $0.0, value: $0.1) })
            default: break
            }
            members.append(JSONMember(key: column.fieldName, value: value))
        }
        return .object(members)
    }

    /// JSON as the old backend's exports print it: `[ 1, "a", [ null, null ] ]`.
    static func pretty(_ value: JSONValue) -> String {
        guard case .array(let elements) = value else { return value.jsonText }
        return elements.isEmpty ? "[ ]" : "[ " + elements.map(pretty).joined(separator: ", ") + " ]"
    }

    static let names = ["José Álvarez", "Zoë Müller", "李娜", "Søren Kierkegaard", "Mary O'Neil", "Aisha Okafor",
                        "Émilie Dubois", "Дмитрий Иванов", "Yuki Tanaka", "Robert \"Bob\" Smith"]
    static let categories = ["parks", "roads", "schools", "water", "housing", "transit"]
    static let statuses = ["Open", "Closed", "Pending review", "Withdrawn"]

    /// One row: its rows.json cells and the values socload stores for it (nil for NULL).
    static func row(_ index: Int, shape: Shape, sortedIDs: Bool,
                    _ random: inout SeededGenerator) -> ([JSONValue], [String?]) {
        let created = epoch + index * 37
        var cells: [JSONValue]
        var values: [String?]
        if shape == .legacy {
            // Old backend: the integer sid is a row counter; the row id is the GUID id.
            let guid = sortedIDs ? String(format: "00000000-0000-0000-%04X-%012X", index % 65_536, index)
                : randomGUID(&random)
            cells = [.number(String(index + 1)), .string(guid), .number(String(index + 1)), .number(String(created)),
                     .string("708"), .number(String(created + 60)), .string("708"), .null]
            values = [guid, iso(created), iso(created + 60)]
        } else {
            let sid = sortedIDs ? "row-\(base32(index, 4))_\(base32(index &* 7919, 4)).\(base32(index &* 104_729, 4))"
                : "row-\(base32(random.int(0...1_048_575), 4))_\(base32(random.int(0...1_048_575), 4))."
                    + base32(random.int(0...1_048_575), 4)
            let guid = "00000000-0000-0000-\(String(format: "%04X", index % 65_536))-\(String(format: "%012X", index))"
            cells = [.string(sid), .string(guid), .number("0"), .number(String(created)), .null,
                     .number(String(created + 60)), .null, .string("{ }")]
            values = [sid, iso(created), iso(created + 60)]
        }

        let name = random.pick(names)
        let description = index % 4 == 0 ? "He said \"hello\"\nand left, twice" : "Item \(index): plain description text"
        let category = random.pick(categories)
        let amount = random.int(0...2_000_000)
        let amountText = index % 3 == 0 ? "\(amount).000000" : "\(amount).25"
        let price = random.int(0...500_000)
        let priceText = "$" + grouped(price / 100) + "." + String(format: "%02d", price % 100)
        let percent = String(random.int(0...100))
        let opened = String(iso(epoch - random.int(0...3_000) * 86_400).dropLast())
        let active: Bool? = index % 10 == 0 ? nil : random.chance(0.5)
        cells += [.string(name), .string(description), .string(category), .string(amountText), .string(priceText),
                  .string(percent), .string(opened), active.map { .bool($0) } ?? .null]
        values += [name, description, category, index % 3 == 0 ? String(amount) : "\(amount).25",
                   String(price / 100) + (price % 100 == 0 ? "" : "." + trimmedCents(price % 100)), percent, opened,
                   active.map { $0 ? "1" : "0" }]

        if index % 7 == 0 {
            cells.append(.array([.null, .null]))
            values += [nil, nil]
        } else {
            cells.append(.array([.string("https://example.org/items/\(index)"), .string("Item \(index)")]))
            values += ["https://example.org/items/\(index)", "Item \(index)"]
        }
        if index % 9 == 0 {
            cells.append(.array([.null, .null, .null, .null, .null]))
            values += [nil, nil, nil]
        } else {
            let address = "{\"address\": \"\(random.int(1...9_999)) Main St\", \"city\": \"Seattle\", \"state\": \"WA\", \"zip\": \"98101\"}"
            let latitude = String(format: "%.6f", 47.0 + Double(random.int(0...999_999)) / 1_000_000)
            let longitude = String(format: "%.6f", -122.0 - Double(random.int(0...999_999)) / 1_000_000)
            cells.append(.array([.string(address), .string(latitude), .string(longitude), .null, .bool(false)]))
            values += [address, latitude, longitude]
        }
        if index % 5 == 0 {
            cells.append(.array([.null, .null]))
            values += [nil, nil]
        } else {
            let number = "(206) 555-\(String(format: "%04d", random.int(0...9_999)))"
            let kind = random.pick(["Office", "Cell", "Fax"])
            cells.append(.array([.string(number), .string(kind)]))
            values += [number, kind]
        }
        let visits = String(random.int(0...100_000))
        let score = String(format: "%.4f", Double(random.int(0...9_999_999)) / 10_000)
        let notes: String? = random.chance(0.3) ? nil : "Note \(index) — ünïcode ✓"
        let inspected = created + random.int(0...10_000_000)
        let status = random.pick(statuses)
        cells += [.string(visits), .string(score), notes.map { .string($0) } ?? .null, .string("中文城市 \(index % 100)"),
                  .string(String(98_100 + index % 100)), .number(String(inspected)), .string(status)]
        values += [visits, String(Double(score) ?? 0), notes, "中文城市 \(index % 100)", String(98_100 + index % 100),
                   iso(inspected), status]
        return (cells, values)
    }

    /// An uppercase GUID, as old-backend exports have them.
    static func randomGUID(_ random: inout SeededGenerator) -> String {
        let high = random.next()
        let low = random.next()
        return String(format: "%08X-%04X-%04X-%04X-%012llX", UInt32(high >> 32), UInt16((high >> 16) & 0xFFFF),
                      UInt16(high & 0xFFFF), UInt16(low >> 48), low & 0xFFFF_FFFF_FFFF)
    }

    static func iso(_ seconds: Int) -> String {
        ISO8601Timestamp.format(Date(timeIntervalSince1970: Double(seconds)))
    }

    static func grouped(_ value: Int) -> String { SampleDatasets.grouped(value) }

    static func trimmedCents(_ cents: Int) -> String {
        cents % 10 == 0 ? String(cents / 10) : String(format: "%02d", cents)
    }

    static func base32(_ value: Int, _ width: Int) -> String {
        let letters = Array("abcdefghijkmnpqrstuvwxyz23456789")
        var number = value
        var text = ""
        for _ in 0..<width {
            text.append(letters[number & 31])
            number >>= 5
        }
        return String(text.reversed()) + (number > 0 ? base32(number, 1) : "")
    }

    static func csvField(_ value: String?) -> String {
        guard let value else { return "" }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Appends text to a file through a large buffer.
final class BufferedFile {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    private func flush() {
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        flush()
        try handle.close()
    }
}
