import CPostgreSQL
import Foundation

extension PostgreSQLConnection {
    /// Gives libpq the parameters as C strings: copies of the short ones, the long ones (a
    /// description of megabytes) where their bytes lie, for the time of `body`.
    static func withParameters<R>(_ parameters: [String?],
                                          _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?) -> R) -> R {
        let long = parameters.indices.filter { (parameters[$0]?.utf8.count ?? 0) >= 1 << 16 }
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.enumerated().map { index, value in
            long.contains(index) ? nil : value.map { strdup($0) } ?? nil
        }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer($0) }
        func inPlace(_ remaining: ArraySlice<Int>) -> R {
            guard let index = remaining.first, let text = parameters[index] else {
                return pointers.withUnsafeBufferPointer { body($0.baseAddress, nil) }
            }
            return text.withCString { bytes in
                pointers[index] = bytes
                defer { pointers[index] = nil }
                return inPlace(remaining.dropFirst())
            }
        }
        return inPlace(long[...])
    }
}
