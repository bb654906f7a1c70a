import SocloadSocrata

extension LoadCommand {
    /// The load these options ask for (`validate()` has checked that they do not clash).
    func loadSpec() throws -> LoadSpec {
        var spec = LoadSpec(document: document, tableName: table)
        spec.document.read(root: root, lines: lines, csv: csv, tsv: tsv, delimiter: delimiter, encoding: encoding, noHeader: noHeader)
        spec.document.metadata = metadata
        spec.mode = mode
        spec.tableOptions = try shape.tableOptions(distributeBy: distributeBy, strict: strict,
                                                   policy: mode == .replace ? .warn : .fail, command: Self.spec)
        spec.document.flatten = flatten
        for given in childKey {
            guard let (field, id) = DocumentOptions.childKey(given) else {
                throw UsageError("--child-key \(given): expected FIELD:ID (names with a colon in double quotes)", command: Self.spec)
            }
            spec.document.childKeys[field] = id
        }
        do {
            spec.document.glues = try glue.map(GlueSpec.init(spec:))
            _ = try spec.documentRequest().targetTable()
        } catch let error as PlanError {
            throw UsageError(error.description, command: Self.spec)
        }
        return spec
    }

    /// The CSV dialect the options give; nil when none says the document is CSV.
    var csvDialect: CSVDialect? {
        CSVDialect.given(csv: csv, tsv: tsv, delimiter: delimiter, encoding: encoding, noHeader: noHeader)
    }

    /// `Loaded 1,000 rows into big (4 columns) from big.ndjson in 0.2 s`; an append or upsert:
    /// `Upserted 2 records into big (1 new, 1 updated) from up.ndjson in 0.0 s: 1,001 rows`.
    static func headline(_ summary: LoadSummary) -> String {
        let rows = "\(NumberText.grouped(summary.rowCount)) row\(summary.rowCount == 1 ? "" : "s")"
        let table = TerminalText.escaped(summary.tableName)
        let source = "from \(TerminalText.escaped(summary.source)) in \(NumberText.seconds(summary.elapsed))"
        guard let merged = summary.merged else {
            return "Loaded \(rows) into \(table) (\(summary.columnCount) columns) \(source)"
        }
        let records = "\(NumberText.grouped(merged.records)) record\(merged.records == 1 ? "" : "s")"
        let detail = merged.mode == .upsert
            ? " (\(NumberText.grouped(merged.inserted)) new, \(NumberText.grouped(merged.updated)) updated)" : ""
        return "\(merged.mode == .upsert ? "Upserted" : "Appended") \(records) into \(table)\(detail) \(source): \(rows)"
    }
}
