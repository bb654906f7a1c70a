import CSQLite
import Foundation
import SocloadCore

extension String {
    /// The name as it must be written in SQL: bare when SQLite reads it as a name (ASCII letters,
    /// digits and `_`, not starting with a digit, not a keyword), else double-quoted. A table named
    /// after a 4x4 id that starts with a digit, `5mtp_qs2h`, must be written `"5mtp_qs2h"`.
    public var sqlIdentifier: String {
        let bytes = Array(utf8)
        let isBare = !bytes.isEmpty && !(bytes[0] >= UInt8(ascii: "0") && bytes[0] <= UInt8(ascii: "9"))
            && bytes.allSatisfy { byte in
                byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
            }
            && sqlite3_keyword_check(self, Int32(bytes.count)) == 0
        return isBare ? self : quotedDatabaseIdentifier
    }
}
