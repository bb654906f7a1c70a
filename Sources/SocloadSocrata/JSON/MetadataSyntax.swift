import SocloadCore

/// The strict reading of a dataset description (`meta` in rows.json, `/api/views/ID.json`) before
/// it is decoded: RFC 8259's grammar exactly (Foundation's decoder accepts trailing commas), and
/// no name given twice in the objects where that would change the meaning — the description
/// itself, its `view`, and each column. RFC 8259 leaves a duplicate name's meaning open, so which
/// of two `fieldName`s is the column's cannot be known: it is bad data, named with its offset.
enum MetadataSyntax {
    /// Where duplicate names are refused, as paths of names from the checked value (`[]` stands
    /// for any element of an array).
    static let rowsJSONMeta: [[String]] = [[], ["view"], ["view", "columns", "[]"]]
    static let viewsAPI: [[String]] = [[], ["columns", "[]"]]

    /// Throws `RowsJSONError.invalidMetadata` naming the byte (counted from `base`) of the
    /// first grammar error or duplicate name; `label` names the value in messages (`meta`,
    /// `view`), `context` starts them (the URL it came from, say).
    static func validate(_ bytes: [UInt8], base: Int, label: String, context: String = "", watched: [[String]]) throws {
        // The columns are counted before anything is built for them.
        let columnsPath = (watched.last ?? []).dropLast().map { $0 }
        if let count = MetadataColumnCount.elements(of: columnsPath, in: bytes), count > ViewMetadata.mostColumns {
            throw RowsJSONError.invalidMetadata(detail: context + "the metadata describes \(count) columns, more than the "
                                                + "\(ViewMetadata.mostColumns) any database socload writes holds")
        }
        // Checked in place first: parsing builds every string, and a description of 100 MB twice.
        // Only a document found wrong is parsed, for the offset of its error.
        if !bytes.withUnsafeBufferPointer(JSONValueParser.isJSON) {
            do {
                _ = try JSONValueParser.parse(bytes)
            } catch {
                throw RowsJSONError.invalidMetadata(detail: context + error.description(base: base))
            }
        }
        if let (name, path, offset) = firstDuplicateName(in: bytes, watched: watched) {
            let place = ([label] + path).joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
            throw RowsJSONError.invalidMetadata(detail: context + "the name \(JSONValue.quoted(name)) appears twice in \(place) "
                                                + "(second at byte \(base + offset))")
        }
    }

    private struct Frame {
        var isObject: Bool
        /// Names from the checked value to this container; array elements as `[N]`.
        var path: [String]
        var pattern: [String]
        var names: Set<String> = []
        var expectingName: Bool
        var pendingName = ""
        var elementIndex = 0
    }

    /// The first name given twice in a watched object, with that object's path and the byte
    /// offset of the second. The bytes are valid JSON (checked before).
    static func firstDuplicateName(in bytes: [UInt8], watched: [[String]]) -> (String, [String], Int)? {
        var stack: [Frame] = []
        var index = 0
        return bytes.withUnsafeBufferPointer { buffer -> (String, [String], Int)? in
            while index < buffer.count {
                let byte = buffer[index]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    var path: [String] = []
                    var pattern: [String] = []
                    if let parent = stack.last {
                        path = parent.path + [parent.isObject ? parent.pendingName : "[\(parent.elementIndex)]"]
                        pattern = parent.pattern + [parent.isObject ? parent.pendingName : "[]"]
                    }
                    stack.append(Frame(isObject: byte == UInt8(ascii: "{"), path: path, pattern: pattern,
                                       expectingName: byte == UInt8(ascii: "{")))
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    stack.removeLast()
                    index += 1
                case UInt8(ascii: ","):
                    if stack[stack.count - 1].isObject {
                        stack[stack.count - 1].expectingName = true
                    } else {
                        stack[stack.count - 1].elementIndex += 1
                    }
                    index += 1
                case UInt8(ascii: "\""):
                    let start = index
                    index += 1
                    while buffer[index] != UInt8(ascii: "\"") {
                        index += buffer[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    index += 1
                    guard let frame = stack.last, frame.isObject, frame.expectingName else { continue }
                    var name: [UInt8] = []
                    _ = JSONStringUnescaping.append(buffer, (start + 1)..<(index - 1), to: &name)
                    let text = String(decoding: name, as: UTF8.self)
                    stack[stack.count - 1].expectingName = false
                    stack[stack.count - 1].pendingName = text
                    if watched.contains(frame.pattern), !stack[stack.count - 1].names.insert(text).inserted {
                        return (text, frame.path, start)
                    }
                default:
                    index += 1
                }
            }
            return nil
        }
    }
}
