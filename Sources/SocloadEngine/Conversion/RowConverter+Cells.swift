import Foundation
import SocloadCore

/// Each logical type's conversion of one cell, straight from the row's bytes. The rules, once:
/// - NULL stays NULL; in a non-text column an empty string is NULL too (not counted);
/// - text, json and geometry take any value: strings as their content, numbers as their digits,
///   booleans as `true`/`false`, arrays and objects as compact JSON;
/// - numbers may carry `$`, `,` and spaces; `NaN`, `Infinity`, hex and values beyond the type's
///   range are not numbers; JSON `true`/`false` count as 1/0;
/// - anything else that does not parse as the column's type is counted and stored as NULL.
extension RowConverter {
    package mutating func convert(_ step: Step, _ index: Int, _ bytes: UnsafeBufferPointer<UInt8>,
                          _ batch: inout RowBatch) throws {
        switch step {
        case let .field(cell, type):
            try convert(cells[cell], type, index, bytes, &batch)
        case let .rowIdentifier(sid, id, type):
            let sidCell = sid.map { cells[$0] }
            if let sidCell, sidCell.kind == .string {
                try convert(sidCell, type, index, bytes, &batch)
            } else if let id, cells[id].kind != .null {
                try convert(cells[id], type, index, bytes, &batch)
            } else {
                try convert(sidCell ?? Self.nullCell, type, index, bytes, &batch)
            }
        case let .part(cell, part, position, type):
            try convertPart(cells[cell], part, position, type, index, bytes, &batch)
        case .absent:
            batch.values.append(.null)
        }
    }

    package static let nullCell = RawCell(kind: .null, start: 0, end: 0, isEscaped: false, isNonASCII: false)

    /// One cell as a value of `type`.
    package mutating func convert(_ cell: RawCell, _ type: LogicalType, _ column: Int, _ bytes: UnsafeBufferPointer<UInt8>,
                          _ batch: inout RowBatch) throws {
        if cell.kind == .null { return batch.values.append(.null) }
        switch type {
        case .geometry where cell.kind == .object:
            // SODA's GeoJSON, as the WKT the export has; a shape it cannot write stays as it came.
            if let wkt = GeoJSONWKT.wkt(bytes, object: cell) { return batch.appendBytes(wkt) }
            fallthrough
        case .text, .json, .geometry:
            let start = batch.values.count
            appendText(cell, bytes, &batch)
            // Only an escape (`\u0000`) can put a NUL in a string, and only a nested value can
            // hold the escape itself.
            if !storable.allowsNULInText, cell.isEscaped || cell.kind == .array || cell.kind == .object,
               !isStorableText(batch, at: start, isJSON: type == .json) {
                batch.values.removeLast()
                try invalidCell(column, cell, bytes, &batch, notStorable: true)
            }
            // A nested value, a number, true or false was read as JSON: it is marked so, and no
            // destination parses it again. (A string's content may or may not be JSON.)
            if type == .json, cell.kind != .string, batch.values.count == start + 1, case let .text(offset, length) = batch.values[start] {
                batch.values[start] = .json(offset: offset, length: length)
            }
        case .integer, .decimal, .double:
            switch cell.kind {
            case .true: batch.values.append(.integer(1))
            case .false: batch.values.append(.integer(0))
            case .string, .number:
                let keepsDigits = storable.keepsDecimalDigits
                let result = Self.withContent(cell, bytes) { Self.number($0, as: type, keepsDigits: keepsDigits, into: &batch) }
                if result == .invalid { try invalidCell(column, cell, bytes, &batch) }
                if result == .rounded { try roundedCell(column, cell, bytes) }
                if result != .invalid, type == .decimal, !storable.isAnything, case let .decimal(offset, length)? = batch.values.last,
                   !batch.arena.withUnsafeBufferPointer({
                       storable.allowsDecimal(UnsafeBufferPointer(rebasing: $0[Int(offset)..<Int(offset + length)]))
                   }) {
                    batch.values.removeLast()
                    try invalidCell(column, cell, bytes, &batch, notStorable: true)
                }
            default: try invalidCell(column, cell, bytes, &batch)
            }
        case .boolean:
            let flag: Bool?? // nil: not a boolean; .some(nil): empty
            switch cell.kind {
            case .true: flag = true
            case .false: flag = false
            case .number: flag = Self.withContent(cell, bytes) { Self.realValue($0) }.map { $0 != 0 }
            case .string:
                // A word, or a number written as text (zero is false).
                flag = Self.withContent(cell, bytes) { text -> Bool?? in
                    if let word = Self.boolean(text) { return word }
                    if let number = Self.realValue(text) { return .some(number != 0) }
                    return nil
                }
            default: flag = nil
            }
            switch flag {
            case .some(.some(let value)): batch.values.append(.integer(value ? 1 : 0))
            case .some(.none): batch.values.append(.null)
            case .none: try invalidCell(column, cell, bytes, &batch)
            }
        case .timestamp, .floatingTimestamp, .date:
            guard cell.kind == .string || (cell.kind == .number && type == .timestamp),
                  Self.withContent(cell, bytes, { Self.timestamp($0, as: type, into: &batch) })
            else { return try invalidCell(column, cell, bytes, &batch) }
            if let range = storable.timestampSeconds, let microseconds = batch.values.last?.timestampMicroseconds,
               !range.contains(Double(microseconds) / 1_000_000) {
                batch.values.removeLast()
                try invalidCell(column, cell, bytes, &batch, notStorable: true)
            }
        }
    }

    /// True when the text value appended at `index` can be stored (see `StorableValues`).
    package func isStorableText(_ batch: RowBatch, at index: Int, isJSON: Bool) -> Bool {
        guard index < batch.values.count, case let .text(offset, length) = batch.values[index] else { return true }
        return batch.arena.withUnsafeBufferPointer {
            storable.allowsText(UnsafeBufferPointer(rebasing: $0[Int(offset)..<Int(offset + length)]), isJSON: isJSON)
        }
    }

    /// Text as given: a string's content (unescaped), a number's digits, true/false, or an array
    /// or object as compact JSON.
    package func appendText(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>, _ batch: inout RowBatch) {
        switch cell.kind {
        case .null: batch.values.append(.null)
        case .string:
            if cell.isEscaped {
                let offset = batch.arena.count
                // Escapes were checked when the row was read.
                _ = JSONStringUnescaping.append(bytes, cell.start..<cell.end, to: &batch.arena)
                batch.values.append(.text(offset: Int32(offset), length: Int32(batch.arena.count - offset)))
            } else {
                batch.appendBytes(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]))
            }
        case .number: batch.appendBytes(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end]))
        case .true: batch.appendBytes("true".utf8)
        case .false: batch.appendBytes("false".utf8)
        case .array, .object:
            let offset = batch.arena.count
            if CompactJSONText.append(bytes, cell.start..<cell.end, to: &batch.arena) {
                batch.values.append(.text(offset: Int32(offset), length: Int32(batch.arena.count - offset)))
                return
            }
            let range = UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])
            if let value = try? JSONValueParser.parse(range) {
                batch.appendText(value.jsonText)
            } else {
                batch.appendBytes(range)
            }
        }
    }

    /// Calls `body` with a string's content (unescaped) or a number's text.
    package static func withContent<Result>(_ cell: RawCell, _ bytes: UnsafeBufferPointer<UInt8>,
                                    _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard cell.isEscaped else { return body(UnsafeBufferPointer(rebasing: bytes[cell.start..<cell.end])) }
        var content: [UInt8] = []
        _ = JSONStringUnescaping.append(bytes, cell.start..<cell.end, to: &content)
        return content.withUnsafeBufferPointer(body)
    }

    /// `true`/`yes`/`y`/`t`/`1` and `false`/`no`/`n`/`f`/`0`, any case; `.some(nil)` for empty;
    /// nil for anything else (the caller then tries a number).
    package static func boolean(_ text: UnsafeBufferPointer<UInt8>) -> Bool?? {
        guard text.count <= 5 else { return nil }
        let word = String(decoding: text, as: UTF8.self).lowercased()
        switch word {
        case "": return .some(nil)
        case "true", "yes", "y", "t", "1": return true
        case "false", "no", "n", "f", "0": return false
        default: return nil
        }
    }

    /// A timestamp, floating timestamp or date from its text; false when the text is not one.
    package static func timestamp(_ text: UnsafeBufferPointer<UInt8>, as type: LogicalType, into batch: inout RowBatch) -> Bool {
        if text.isEmpty {
            batch.values.append(.null)
            return true
        }
        if type == .timestamp, DecimalSyntax.isDecimal(text) {
            // Epoch seconds.
            if let seconds = DecimalText.integer(text), (-9_999_999_999_999...9_999_999_999_999).contains(seconds) {
                let (microseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
                guard !overflow else { return false }
                batch.values.append(.instant(microseconds: microseconds))
                return true
            }
            guard let seconds = realValue(text), seconds.isFinite, abs(seconds) < 9.2e12 else { return false }
            batch.values.append(.instant(microseconds: Int64((seconds * 1_000_000).rounded())))
            return true
        }
        // Four-digit years, as Socrata writes them (the reader takes signed and longer ones too),
        // or the US form of its CSV exports (`01/15/2020 12:00:00 AM`, taken as written).
        let usForm = ISO8601Timestamp.startsWithFourDigitYear(text) ? nil : ISO8601Timestamp.usDateTime(utf8: text)?.microseconds
        guard usForm != nil || ISO8601Timestamp.startsWithFourDigitYear(text) else { return false }
        switch type {
        case .timestamp:
            guard let microseconds = usForm ?? ISO8601Timestamp.microseconds(utf8: text, applyingZone: true) else { return false }
            batch.values.append(.instant(microseconds: microseconds))
        case .date:
            // The date as written (no zone applied), when the text is a date or a midnight.
            guard let microseconds = usForm ?? ISO8601Timestamp.microseconds(utf8: text, applyingZone: false) else { return false }
            let day = microseconds >= 0 ? microseconds / 86_400_000_000 : (microseconds - 86_399_999_999) / 86_400_000_000
            guard let days = Int32(exactly: day) else { return false }
            batch.values.append(.day(days))
        default:
            guard let microseconds = usForm ?? ISO8601Timestamp.microseconds(utf8: text, applyingZone: false) else { return false }
            batch.values.append(.wallClock(microseconds: microseconds))
        }
        return true
    }
}
