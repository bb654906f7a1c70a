import SocloadCore
import SocloadEngine
import SocloadTransport

/// How a CSV or TSV file is written: its delimiter, its character encoding, and whether its first
/// line names the columns. Fields follow RFC 4180: a field in double quotes may hold the
/// delimiter, line breaks and `""` for a quote; lines end in LF or CRLF; a UTF-8 byte order mark
/// is skipped.
public struct CSVDialect: Sendable, Equatable {
    /// The byte between fields; nil: the header line's most frequent of `,` tab `;` `|`
    /// (comma on a tie).
    public var delimiter: UInt8?
    public var encoding: TextEncoding
    /// False: the first line is data, and the columns are `column_1`, `column_2`, ...
    public var hasHeader: Bool

    public init(delimiter: UInt8? = nil, encoding: TextEncoding = .utf8, hasHeader: Bool = true) {
        self.delimiter = delimiter
        self.encoding = encoding
        self.hasHeader = hasHeader
    }

    /// The delimiters guessed between when none is given.
    package static let candidateDelimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: "\t"), UInt8(ascii: ";"), UInt8(ascii: "|")]

    /// The delimiter of a file whose first line (up to its first line break outside quotes) is
    /// `line`: the candidate it holds most often outside quotes.
    package static func guessDelimiter(firstLine line: some Collection<UInt8>) -> UInt8 {
        var counts = [Int](repeating: 0, count: candidateDelimiters.count)
        var quoted = false
        for byte in line {
            if byte == UInt8(ascii: "\"") { quoted.toggle(); continue }
            if quoted { continue }
            if byte == 0x0A || byte == 0x0D { break }
            if let index = candidateDelimiters.firstIndex(of: byte) { counts[index] += 1 }
        }
        let best = counts.indices.max { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 < $1) } ?? 0
        return counts[best] == 0 ? candidateDelimiters[0] : candidateDelimiters[best]
    }

    /// A name as `--delimiter` takes it: one ASCII character other than a quote or a line break,
    /// or `tab` / `\t`.
    public static func delimiter(named name: String) -> UInt8? {
        if name == "tab" || name == "\\t" { return UInt8(ascii: "\t") }
        guard name.utf8.count == 1, let byte = name.utf8.first, byte < 0x80, byte != UInt8(ascii: "\""),
              byte != 0x0A, byte != 0x0D else { return nil }
        return byte
    }
}

/// The character encodings a CSV file may be in: UTF-8, or the single-byte encodings portals
/// and spreadsheets still export, read into UTF-8 as they are read.
public enum TextEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    /// ISO-8859-1: every byte is the code point of its value.
    case latin1 = "latin-1"
    /// Windows-1252: Latin-1 with printable characters (`€`, `‘`, `’`, `“`, `”`, `–`) where
    /// Latin-1 has control codes in 0x80...0x9F.
    case windows1252 = "windows-1252"

    /// The encoding a name (any case; `utf8`, `latin1`, `iso-8859-1`, `cp1252` too) names.
    public init?(name: String) {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8": self = .utf8
        case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1": self = .latin1
        case "windows-1252", "cp1252", "win-1252", "windows1252": self = .windows1252
        default: return nil
        }
    }

    /// The code points Windows-1252 gives 0x80...0x9F (the five it leaves undefined keep their
    /// own value, as web browsers read them).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Appends `bytes` of a single-byte encoding to `output` as UTF-8 (`utf8`: as they are).
    package func appendAsUTF8(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard self != .utf8 else { return output.append(contentsOf: bytes) }
        output.reserveCapacity(output.count + bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 { output.append(byte); continue }
            let scalar = self == .windows1252 && byte < 0xA0 ? Self.windows1252High[Int(byte - 0x80)] : UInt32(byte)
            if scalar < 0x800 {
                output.append(0xC0 | UInt8(scalar >> 6))
                output.append(0x80 | UInt8(scalar & 0x3F))
            } else {
                output.append(0xE0 | UInt8(scalar >> 12))
                output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
                output.append(0x80 | UInt8(scalar & 0x3F))
            }
        }
    }
}
