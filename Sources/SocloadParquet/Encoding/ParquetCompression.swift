import CSnappy
import CZstd
import SocloadCore

/// How a file's pages are compressed (`export --compression`): zstd by default.
public enum ParquetCompression: String, Sendable, CaseIterable {
    case zstd, snappy, none

    /// CompressionCodec in the file's metadata.
    var codec: Int32 {
        switch self {
        case .none: return 0
        case .snappy: return 1
        case .zstd: return 6
        }
    }

    /// `bytes` compressed (as they are, for `none`).
    func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        switch self {
        case .none:
            return bytes
        case .zstd:
            var output = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
            let written = output.withUnsafeMutableBytes { target in
                bytes.withUnsafeBytes { source in
                    ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, 3)
                }
            }
            guard ZSTD_isError(written) == 0 else {
                throw ParquetWriteError.compression("zstd: " + String(cString: ZSTD_getErrorName(written)))
            }
            output.removeSubrange(written...)
            return output
        case .snappy:
            var length = snappy_max_compressed_length(bytes.count)
            var output = [UInt8](repeating: 0, count: length)
            let status = output.withUnsafeMutableBytes { target in
                bytes.withUnsafeBytes { source in
                    snappy_compress(source.baseAddress?.assumingMemoryBound(to: CChar.self), source.count,
                                    target.baseAddress?.assumingMemoryBound(to: CChar.self), &length)
                }
            }
            guard status == SNAPPY_OK else { throw ParquetWriteError.compression("snappy failed (status \(status.rawValue))") }
            output.removeSubrange(length...)
            return output
        }
    }
}

/// Why a Parquet file could not be written.
public enum ParquetWriteError: CategorizedError, Equatable {
    case compression(String)
    case file(path: String, reason: String)
    case value(column: String, row: Int, reason: String)

    public var description: String {
        switch self {
        case .compression(let reason): return "a Parquet page could not be compressed: \(reason)"
        case let .file(path, reason): return "\(path): \(reason)"
        case let .value(column, row, reason): return "row \(row), column \(column): \(reason)"
        }
    }

    public var kind: FailureKind {
        switch self {
        case .compression, .file: return .fileSystem
        case .value: return .badData
        }
    }
}
