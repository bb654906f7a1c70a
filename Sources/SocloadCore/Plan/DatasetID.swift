import Foundation

/// A Socrata dataset id (a "4x4": `n5m4-mism`), as text: what tables are named after.
public enum DatasetID {
    /// True for a Socrata 4x4 id: four lower-case letters or digits, a dash, four more.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 9, bytes[4] == UInt8(ascii: "-") else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 4 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// The 4x4 id standing anywhere in a file's name, between characters that are no letter or
    /// digit (`data.seattle.gov__2tje-83f6__resource-v2.json`, `abcd-1234.rows.json`); the last
    /// one when there are several, nil when there is none.
    public static func inFileName(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        func isWordByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        var found: String?
        var start = 0
        while start + 9 <= bytes.count {
            let candidate = String(decoding: bytes[start..<start + 9], as: UTF8.self)
            if isValid(candidate), start == 0 || !isWordByte(bytes[start - 1]),
               start + 9 == bytes.count || !isWordByte(bytes[start + 9]) {
                found = candidate
            }
            start += 1
        }
        return found
    }
}

extension LoadPlan {
    /// The table name for a dataset id: `n5m4-mism` → `n5m4_mism`.
    public static func tableName(forDatasetID id: String) -> String {
        id.replacingOccurrences(of: "-", with: "_")
    }
}
