import SocloadCore

/// The one converter: turns source rows (rows.json arrays or SODA objects, as bytes) into the
/// typed values of a plan table's columns, appended to a `RowBatch`.
///
/// Every destination gets the same values. A cell that is not of its column's type becomes NULL
/// and is counted (`invalidCells`), or, when `strict`, stops the load. Rows are read in place
/// from the input's bytes: no String per cell, no intermediate JSON tree.
///
///     var converter = RowConverter(plan: plan, rows: .arrays)
///     var batch = RowBatch(columnCount: plan.mainTable.columns.count, firstRowNumber: 1, expectedRows: 1024)
///     try converter.append(row: rowBytes, rowNumber: 1, offset: 0, to: &batch)
public struct RowConverter: Sendable {
    /// How source rows are written.
    public enum RowFormat: Sendable {
        /// `[cell, cell, ...]` in `sourceFields` order (rows.json).
        case arrays
        /// `{"field": cell, ...}`, matched to `sourceFields` by name; absent fields are null (SODA).
        case objects
    }

    public let table: PlanTable
    public let format: RowFormat
    public let strict: Bool
    /// What the destination can store (see `StorableValues`).
    public let storable: StorableValues
    /// How many cells a source row has.
    package var cellCount: Int { fieldNames.count }
    private let fieldIndexes: [String: Int]
    private let keyColumns: [Int]
    /// Per column, where its value comes from, resolved once (no String or array in it, so the
    /// per-row loop retains nothing).
    private let steps: [Step]

    package enum Step {
        case field(cell: Int, type: LogicalType)
        /// `position`: where the part sits in an array value (from `subColumnTypes`, else the usual place).
        case part(cell: Int, part: FieldPart, position: Int, type: LogicalType)
        case rowIdentifier(sid: Int?, id: Int?, type: LogicalType)
        /// A column with no source: NULL.
        case absent
    }
    /// Per column: its cells that were not of its type so far.
    private var invalid: [InvalidCells?]

    // Scratch space reused for every row.
    package var cells: [RawCell] = []
    package var parts: [RawCell] = []
    package var members: [RawMember] = []
    /// The compound value (a location, url or point object) whose members `members` holds now,
    /// so a value of three parts is parsed once; nil at the start of each row.
    package var membersOf: Range<Int>?
    private var memberKeys = MemberKeyTable()
    /// Which cells an object row has given a value (to find a field given twice).
    private var placed: [Bool] = []
    private var duplicateField: Int?
    private let fieldNames: [String]

    package var rowNumber = 0

    public init(plan: LoadPlan, table: Int = 0, rows format: RowFormat, strict: Bool = false,
                storable: StorableValues = .anything) {
        let planTable = plan.tables[table]
        self.table = planTable
        self.format = format
        self.strict = strict
        self.storable = storable
        // A child table's rows are objects made from nested elements, with fields of their own.
        let sourceFields = planTable.nesting?.sourceFields ?? plan.sourceFields
        var indexes: [String: Int] = [:]
        for (index, field) in sourceFields.enumerated() where indexes[field] == nil {
            indexes[field] = index
        }
        fieldIndexes = indexes
        fieldNames = sourceFields
        keyColumns = planTable.primaryKey.compactMap { key in planTable.columns.firstIndex { $0.name == key } }
        steps = planTable.columns.map { column in
            switch column.source {
            case .field(let cell): return .field(cell: cell, type: column.type)
            case let .rowIdentifier(sid, id): return .rowIdentifier(sid: sid, id: id, type: column.type)
            case .absent: return .absent
            case let .part(cell, part, subColumnTypes):
                return .part(cell: cell, part: part, position: subColumnTypes?.firstIndex(of: part.rawValue) ?? Self.position(of: part),
                             type: column.type)
            }
        }
        invalid = Array(repeating: nil, count: planTable.columns.count)
        rounded = invalid
        cells.reserveCapacity(cellCount)
    }

    /// Per column: its numbers stored rounded so far (more digits than the destination keeps).
    private var rounded: [InvalidCells?]

    /// The columns that had cells not of their type, then those whose numbers were stored
    /// rounded (`InvalidCells.roundedBy`), in column order.
    public var invalidCells: [InvalidCells] { invalid.compactMap { $0 } + rounded.compactMap { $0 } }

    /// Object rows: the fields met that are none of the plan's source fields (their values are
    /// not loaded), first met first; at most `mostFieldsOutsidePlan` are remembered.
    public private(set) var fieldsOutsidePlan: [String] = []
    /// Object rows: whether a row had a data field (not a system field) of the plan.
    public private(set) var metPlanDataField = false
    package static let mostFieldsOutsidePlan = 64

    /// Parses and appends the row starting at `start` when it ends before `limit`,
    /// returning the index past it; nil when it continues past `limit` or is malformed (the
    /// caller then reads it whole and calls `append(row:...)`, which reports errors precisely).
    /// Nothing is appended unless the row is complete.
    public mutating func appendIfComplete(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
                                          rowNumber: Int, offset: Int, to batch: inout RowBatch) throws -> Int? {
        cells.removeAll(keepingCapacity: true)
        let end: Int
        switch format {
        case .arrays:
            guard let found = try? RawArrayParser.array(in: bytes, from: start, limit: limit, into: &cells) else { return nil }
            end = found
        case .objects:
            members.removeAll(keepingCapacity: true)
            guard let found = try? RawObjectParser.object(in: bytes, from: start, limit: limit, into: &members) else {
                return nil
            }
            end = found
            try placeMembers(bytes)
        }
        try convertCells(UnsafeBufferPointer(rebasing: bytes[start..<end]), rowNumber: rowNumber,
                         offset: offset, whole: bytes, to: &batch)
        return end
    }

    /// Appends one complete row: `bytes` holds its JSON text (an array or an object, as `format` says).
    public mutating func append(row bytes: UnsafeBufferPointer<UInt8>, rowNumber: Int, offset: Int,
                                to batch: inout RowBatch) throws {
        var lower = 0
        var upper = bytes.count
        while lower < upper, Self.isWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, Self.isWhitespace(bytes[upper - 1]) { upper -= 1 }
        cells.removeAll(keepingCapacity: true)
        do {
            switch format {
            case .arrays:
                try RawArrayParser.elements(of: bytes, in: lower..<upper, into: &cells)
            case .objects:
                members.removeAll(keepingCapacity: true)
                try RawObjectParser.members(of: bytes, in: lower..<upper, into: &members)
                try placeMembers(bytes)
            }
        } catch {
            throw Self.rowError(bytes, rowNumber: rowNumber, offset: offset, format: format)
        }
        try convertCells(bytes, rowNumber: rowNumber, offset: offset, whole: bytes, to: &batch)
    }

    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The cells of an object row, in source order; fields it leaves out are null. Keys are
    /// compared as bytes with the previous row's, which SODA writes in the same order.
    private mutating func placeMembers(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        let null = RawCell(kind: .null, start: 0, end: 0, isEscaped: false, isNonASCII: false)
        cells.append(contentsOf: repeatElement(null, count: cellCount))
        placed.removeAll(keepingCapacity: true)
        placed.append(contentsOf: repeatElement(false, count: cellCount))
        duplicateField = nil
        for (position, member) in members.enumerated() {
            let fieldIndexes = self.fieldIndexes
            var outside: String?
            let cell = memberKeys.cell(forKeyAt: member.keyStart..<member.keyEnd, in: bytes, position: position) {
                var name: [UInt8] = []
                if member.keyIsEscaped {
                    _ = JSONStringUnescaping.append(bytes, member.keyStart..<member.keyEnd, to: &name)
                } else {
                    name = Array(bytes[member.keyStart..<member.keyEnd])
                }
                let field = String(decoding: name, as: UTF8.self)
                guard let index = fieldIndexes[field] else {
                    outside = field
                    return nil
                }
                return index
            }
            if let outside { noteFieldOutsidePlan(outside) }
            if let cell {
                if !metPlanDataField, !ColumnMetadata.isSystemField(fieldNames[cell]) { metPlanDataField = true }
                // Two values for one field: which one the portal meant cannot be known.
                if placed[cell], duplicateField == nil { duplicateField = cell }
                placed[cell] = true
                cells[cell] = member.value
            }
        }
    }

    /// Remembers a field of no plan column (met again only past `MemberKeyTable.maximumKeys`).
    private mutating func noteFieldOutsidePlan(_ field: String) {
        guard fieldsOutsidePlan.count < Self.mostFieldsOutsidePlan, !fieldsOutsidePlan.contains(field) else { return }
        fieldsOutsidePlan.append(field)
    }

    /// Validates nested values, checks the row's shape, converts every column and checks the key.
    /// `row` is the row's text (for error messages); the cells index `whole`.
    private mutating func convertCells(_ row: UnsafeBufferPointer<UInt8>, rowNumber: Int, offset: Int,
                                       whole bytes: UnsafeBufferPointer<UInt8>, to batch: inout RowBatch) throws {
        self.rowNumber = rowNumber
        // Every nested value is checked, stored or not: in an object row, the members of no column too.
        func checkNested(_ cell: RawCell) throws {
            guard cell.kind == .array || cell.kind == .object else { return }
            guard RawJSONValidator.isValid(bytes, cell.start..<cell.end, depth: 1) else {
                throw Self.rowError(row, rowNumber: rowNumber, offset: offset, format: format)
            }
        }
        if format == .objects {
            for member in members { try checkNested(member.value) }
        } else {
            for cell in cells { try checkNested(cell) }
        }
        if format == .arrays, cells.count != cellCount {
            throw LoadError.rowShape(row: rowNumber, expected: cellCount, found: cells.count)
        }
        if format == .objects, let duplicateField {
            throw RowsJSONError.badRow(row: rowNumber, offset: offset,
                                       detail: "the field '\(fieldNames[duplicateField])' appears twice")
        }
        let mark = batch.values.count
        membersOf = nil
        for index in steps.indices {
            try convert(steps[index], index, bytes, &batch)
        }
        for key in keyColumns where batch.values[mark + key].isNull {
            batch.truncate(toValueCount: mark)
            throw LoadError.nullKey(table: table.name, column: table.columns[key].name, row: rowNumber)
        }
    }

    /// The precise error for a row the byte-level parser rejected.
    package static func rowError(_ bytes: UnsafeBufferPointer<UInt8>, rowNumber: Int, offset: Int, format: RowFormat) -> Error {
        let expected = format == .arrays ? "not an array" : "not an object"
        do {
            let value = try JSONValueParser.parse(bytes)
            switch (value, format) {
            case (.array, .arrays), (.object, .objects):
                return RowsJSONError.badRow(row: rowNumber, offset: offset, detail: "unreadable row")
            default:
                return RowsJSONError.badRow(row: rowNumber, offset: offset, detail: expected)
            }
        } catch {
            return RowsJSONError.badRow(row: rowNumber, offset: offset, detail: error.description(base: offset))
        }
    }

    // MARK: - Invalid cells

    /// Records a cell that is not of its column's type and stores NULL (or stops, when strict).
    package mutating func invalidCell(_ column: Int, _ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>,
                              _ batch: inout RowBatch, notStorable: Bool = false) throws {
        if invalid[column] != nil {
            invalid[column]!.count += 1
        } else {
            invalid[column] = InvalidCells(column: table.columns[column].name, type: table.columns[column].type,
                                           count: 1, firstRow: rowNumber, firstValue: InvalidCells.display(bytes, cell),
                                           destinationNote: notStorable ? storable.note : nil)
        }
        if strict { throw InvalidCellError(cells: invalid[column]!) }
        batch.values.append(.null)
    }

    /// Records a number stored rounded, its value already appended (or stops, when strict).
    package mutating func roundedCell(_ column: Int, _ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>) throws {
        if rounded[column] != nil {
            rounded[column]!.count += 1
        } else {
            rounded[column] = InvalidCells(column: table.columns[column].name, type: table.columns[column].type,
                                           count: 1, firstRow: rowNumber, firstValue: InvalidCells.display(bytes, cell),
                                           roundedBy: storable.destinationName.isEmpty ? "SQLite" : storable.destinationName)
        }
        if strict { throw InvalidCellError(cells: rounded[column]!) }
    }
}
