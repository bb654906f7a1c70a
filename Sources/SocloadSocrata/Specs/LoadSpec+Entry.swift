import SocloadCore

/// The entry form of a spec: a project file's dataset entry, and the spec's `Codable` form.
/// Each key is an option's long name without the dashes; a flag takes true or false, a
/// repeatable option a list, any other option a text or a number.
extension LoadSpec {
    /// The keys that name the source: a dataset by `id`, `url` or `file` (a rows.json), a
    /// document (JSON, NDJSON, CSV) by `document`.
    public static let sourceKeys = ["id", "url", "file", "document"]
    /// The options of a dataset (`socload fetch`'s).
    public static let datasetKeys = ["table", "domain", "datasets", "cache", "keep-versions", "limit", "max-rows", "system-columns", "api", "where",
                                     "select", "order", "page-size", "force", "incremental", "incremental-above", "platform"] + tableKeys
    /// The options of a document (`socload load`'s).
    public static let documentKeys = ["table", "mode", "root", "lines", "csv", "tsv", "delimiter", "encoding", "no-header",
                                      "metadata", "child-key", "glue", "flatten"] + tableKeys
    /// The options both take (`TableOptions`).
    static let tableKeys = ["type", "index", "fts", "pk", "extract", "on-schema-change", "keep-changes", "history", "geometry",
                            "distribute-by", "strict"]
    static var flagKeys: Set<String> { Set(specFlags.keys).union(DocumentReading.flags.keys) }
    static let listKeys: Set<String> = ["type", "index", "extract", "child-key", "glue"]

    /// The spec an entry's members stand for: one source key, then options. `defaults` are
    /// options every entry takes unless it gives its own. Each key is checked on its own (the
    /// error names it), then the whole spec (`validate()`).
    public init(entry members: [JSONMember], defaults: [JSONMember] = []) throws(LoadSpecError) {
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            throw LoadSpecError(key: member.key, problem: "is given twice")
        }
        let sources = members.filter { Self.sourceKeys.contains($0.key) }
        guard sources.count == 1, let named = sources.first else {
            throw LoadSpecError(key: nil, problem: sources.isEmpty ? "names no dataset: give \"id\", \"url\" or \"file\""
                                    : "names its source twice (\(sources.map(\.key).joined(separator: ", "))): give one")
        }
        let text = try Self.text(named)
        self.init(source: named.key == "document" ? .document(text) : .dataset(text))
        let options = members.filter { !Self.sourceKeys.contains($0.key) }
        let inherited = defaults.filter { option in !options.contains { $0.key == option.key } }
        var reading = DocumentReading()
        for member in inherited + options { try set(member, reading: &reading) }
        try reading.apply(to: &self, schemaPolicyGiven: (inherited + options).contains { $0.key == "on-schema-change" })
        try validate()
    }

    /// The options `keys` allow for this spec's source, `fetch`'s or `load`'s.
    var optionKeys: [String] {
        if case .document = source { return Self.documentKeys }
        return Self.datasetKeys
    }

    private mutating func set(_ member: JSONMember, reading: inout DocumentReading) throws(LoadSpecError) {
        let key = member.key
        guard optionKeys.contains(key) else {
            let command = optionKeys == Self.documentKeys ? "load" : "fetch"
            throw LoadSpecError(key: key, problem: "is not an option of \(command)" + (NearestName.to(key, among: optionKeys)
                .map { " (did you mean \"\($0)\"?)" } ?? " (socload \(command) --help lists them; write them without the dashes)"))
        }
        if Self.flagKeys.contains(key) {
            guard case .bool(let isSet) = member.value else { throw LoadSpecError(key: key, problem: "takes true or false") }
            setFlag(key, isSet, reading: &reading)
        } else if Self.listKeys.contains(key) {
            guard case .array(let values) = member.value else {
                throw LoadSpecError(key: key, problem: "takes a list, such as [\"a\", \"b\"]")
            }
            for value in values { try setOption(key, try Self.text(JSONMember(key: key, value: value)), reading: &reading) }
        } else {
            try setOption(key, try Self.text(member), reading: &reading)
        }
    }

    /// The flags that set a property of the spec as they are.
    private static var specFlags: [String: WritableKeyPath<LoadSpec, Bool>] {
        ["system-columns": \.includeSystemColumns, "force": \.force, "incremental": \.incremental,
         "history": \.tableOptions.keepsHistory, "strict": \.tableOptions.strict, "flatten": \.document.flatten]
    }

    /// The options whose text is a property of the spec as written.
    private static var textOptions: [String: WritableKeyPath<LoadSpec, String?>] {
        ["table": \.tableName, "domain": \.domain, "datasets": \.datasetsDirectory, "cache": \.cache,
         "where": \.query.`where`, "select": \.query.select, "order": \.query.order, "geometry": \.tableOptions.geometryColumn,
         "distribute-by": \.tableOptions.distributeBy, "metadata": \.document.metadata]
    }

    private mutating func setFlag(_ key: String, _ isSet: Bool, reading: inout DocumentReading) {
        if let flag = Self.specFlags[key] {
            self[keyPath: flag] = isSet
        } else if let flag = DocumentReading.flags[key] {
            reading[keyPath: flag] = isSet
        }
    }

    private mutating func setOption(_ key: String, _ text: String, reading: inout DocumentReading) throws(LoadSpecError) {
        if let option = Self.textOptions[key] {
            self[keyPath: option] = text
            return
        }
        switch key {
        case "limit": limit = try Self.whole(key, text)
        case "keep-versions": keepVersions = try Self.whole(key, text, from: 1)
        case "max-rows": maxRows = try Self.whole(key, text)
        case "incremental-above": incrementalAbove = try Self.whole(key, text)
        case "keep-changes": tableOptions.keptChangeRefreshes = try Self.whole(key, text)
        case "page-size": pageSize = try Self.whole(key, text, from: 1)
        case "api": api = try Self.named(key, text, DatasetAPI(rawValue: text), "auto, rows, soda2 or soda3")
        case "platform": platform = try Self.named(key, text, DataPlatform(name: text), "socrata, ckan, arcgis or ods")
        case "on-schema-change":
            tableOptions.onSchemaChange = try Self.named(key, text, SchemaChangePolicy(rawValue: text.lowercased()),
                                                         "warn, fail or evolve")
        case "mode": mode = try Self.named(key, text, DocumentLoadMode(rawValue: text), "replace, append or upsert")
        case "type":
            guard let equals = text.lastIndex(of: "="), equals != text.startIndex,
                  let type = LogicalType(name: String(text[text.index(after: equals)...])) else {
                throw LoadSpecError(key: key, problem: "takes COLUMN=TYPE with a type among "
                                    + LogicalType.allCases.map(\.rawValue).joined(separator: ", ") + ", not '\(text)'")
            }
            tableOptions.typeOverrides[String(text[..<equals])] = type
        case "index": tableOptions.indexes.append(Self.columns(text))
        case "fts": tableOptions.fullTextColumns = Self.columns(text)
        case "pk": tableOptions.primaryKey = Self.columns(text)
        case "extract": tableOptions.extractions.append(try Self.parsed(key) { try Extraction(spec: text) })
        case "glue": document.glues.append(try Self.parsed(key) { try GlueSpec(spec: text) })
        case "child-key":
            guard let (field, id) = DocumentOptions.childKey(text) else {
                throw LoadSpecError(key: key, problem: "takes FIELD:ID (names with a colon in double quotes), not '\(text)'")
            }
            document.childKeys[field] = id
        case "root": reading.root = text
        case "delimiter": reading.delimiter = text
        case "encoding": reading.encoding = try Self.named(key, text, TextEncoding(name: text), "utf-8, latin-1 or windows-1252")
        default: break
        }
    }

    /// A text or a number, as written.
    static func text(_ member: JSONMember) throws(LoadSpecError) -> String {
        switch member.value {
        case .string(let text) where !text.isEmpty: return text
        case .number(let text): return text
        case .string: throw LoadSpecError(key: member.key, problem: "is empty")
        default: throw LoadSpecError(key: member.key, problem: "takes a text or a number")
        }
    }

    private static func whole(_ key: String, _ text: String, from minimum: Int = 0) throws(LoadSpecError) -> Int {
        guard let value = Int(text), value >= minimum else {
            throw LoadSpecError(key: key, problem: "takes \(minimum == 0 ? "a whole number" : "a number above 0"), not '\(text)'")
        }
        return value
    }

    private static func named<T>(_ key: String, _ text: String, _ value: T?, _ expected: String) throws(LoadSpecError) -> T {
        guard let value else { throw LoadSpecError(key: key, problem: "takes \(expected), not '\(text)'") }
        return value
    }

    private static func parsed<T>(_ key: String, _ body: () throws -> T) throws(LoadSpecError) -> T {
        do { return try body() } catch { throw LoadSpecError(key: key, problem: "is wrong: \(error)") }
    }

    /// `a,b`: the columns of an index or key, as given (a blank name is the plan's to report).
    static func columns(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
}

/// A document's reading options as the entry gives them, made into a format and a layout once
/// all are known (`csv` and `tsv` clash, a delimiter makes CSV, ...).
struct DocumentReading {
    var root: String?
    var lines = false
    var csv = false
    var tsv = false
    var delimiter: String?
    var encoding: TextEncoding?
    var noHeader = false

    /// The flags that say how a document is read.
    static var flags: [String: WritableKeyPath<DocumentReading, Bool>] {
        ["lines": \.lines, "csv": \.csv, "tsv": \.tsv, "no-header": \.noHeader]
    }

    func apply(to spec: inout LoadSpec, schemaPolicyGiven: Bool) throws(LoadSpecError) {
        if root != nil, lines { throw LoadSpecError(key: nil, problem: "--root and --lines are two different layouts: pass one") }
        if csv, tsv { throw LoadSpecError(key: nil, problem: "--csv and --tsv are two different formats: pass one") }
        if let delimiter, CSVDialect.delimiter(named: delimiter) == nil {
            throw LoadSpecError(key: "delimiter", problem: "takes one character other than a quote or a line break, or tab, "
                                + "not '\(delimiter)'")
        }
        spec.document.read(root: root, lines: lines, csv: csv, tsv: tsv, delimiter: delimiter, encoding: encoding, noHeader: noHeader)
        // Adding to a table keeps its shape unless told otherwise.
        if spec.mode != .replace, !schemaPolicyGiven { spec.tableOptions.onSchemaChange = .fail }
    }
}
