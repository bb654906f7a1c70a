import Foundation
import SocloadSocrata

/// The fuzz target for dataset descriptions (`make fuzz FUZZ_TARGET=metadata`) and its corpus
/// test. Any bytes are read both as `/api/views/ID.json` and as `meta.view` inside a rows.json
/// document (in several chunkings). Neither may crash; the two must accept and reject the same
/// descriptions and, accepted, give the same view; an accepted description must hold no name
/// twice in the view or a column (checked on a `JSONValue` tree, apart from the reader's own
/// scan); and a plan built from it either builds or fails with a typed error.
public enum MetadataSelfCheck {
    /// nil when everything agrees, else what differed.
    public static func check(_ bytes: [UInt8]) -> String? {
        let described = Result { try ViewMetadata(description: bytes, source: "fuzz") }
        let document = Array(#"{"meta":{"view":"#.utf8) + bytes + Array(#"},"data":[]}"#.utf8)
        let whole = readMeta(document, chunk: document.count)
        for chunk in [1, 7, 64] where chunk < document.count {
            let other = readMeta(document, chunk: chunk)
            if "\(other)" != "\(whole)" { return "meta in \(chunk)-byte chunks gives \(other) but whole \(whole)" }
        }
        switch (described, whole) {
        case let (.success(a), .success(b)):
            if a != b { return "the two readings give different views:\n\(a)\n\(b)" }
            if let duplicate = duplicateName(in: bytes) { return "accepted a description with \(duplicate) twice" }
            // A plan either builds or fails with its own error: nothing else may happen.
            _ = try? LoadPlan.socrata(view: a, options: PlanOptions(tableName: "t"))
        case let (.failure(a), .failure(b)):
            _ = (a, b)
        case let (.success(view), .failure(error)), let (.failure(error), .success(view)):
            // The rows.json envelope nests the view two levels deeper: depth limits may differ.
            if "\(error)".contains("nested more than") { return nil }
            return "one reading accepts (\(view)), the other fails: \(error)"
        }
        return nil
    }

    /// Stops the process on a disagreement: what a fuzzer looks for.
    public static func run(_ bytes: [UInt8]) {
        if let failure = check(bytes) { preconditionFailure(failure) }
    }

    private static func readMeta(_ document: [UInt8], chunk: Int) -> Result<ViewMetadata, Error> {
        let reader = RowsJSONReader()
        var view: ViewMetadata?
        return Result {
            var offset = 0
            while offset < document.count {
                let end = min(document.count, offset + chunk)
                try document[offset..<end].withUnsafeBytes { part in
                    try reader.feed(part, onMetadata: { view = $0 }, onRow: { _ in nil })
                }
                offset = end
            }
            try reader.finish()
            guard let view else { throw RowsJSONError.missingMetadata }
            return view
        }
    }

    /// A name given twice in the view object or one of its columns, found on a parsed tree.
    public static func duplicateName(in bytes: [UInt8]) -> String? {
        guard case .object(let members)? = try? JSONValue(parsingRow: bytes, row: 0, offset: 0) else { return nil }
        var objects = [members]
        if case .array(let columns)? = members.last(where: { $0.key == "columns" })?.value {
            for case .object(let column) in columns { objects.append(column) }
        }
        for object in objects {
            var seen = Set<String>()
            for member in object where !seen.insert(member.key).inserted { return member.key }
        }
        return nil
    }
}
