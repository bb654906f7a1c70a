import Foundation
import SocloadCore
import SocloadEngine
import SocloadTransport

/// A file given to `socload load` that holds no records, recognised from its first bytes so the
/// error says what it is instead of how it failed to read as JSON or CSV: a saved HTTP response
/// (`curl -i`), an HTML or XML page (a portal's error or login page served with status 200),
/// text whose byte order mark was written more than once.
public enum ForeignDocument: Sendable, Equatable, CustomStringConvertible {
    /// `HTTP/1.1 404 Not Found`, then headers.
    case httpResponse(statusLine: String)
    case html(title: String?)
    case xml
    case repeatedByteOrderMarks(count: Int)

    package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// What `head` (a file's first bytes) is, when it is one of these; nil for anything else.
    package static func recognise(_ head: [UInt8]) -> ForeignDocument? {
        var bytes = head[...]
        var marks = 0
        while bytes.starts(with: byteOrderMark) {
            bytes = bytes.dropFirst(3)
            marks += 1
        }
        if marks > 1 { return .repeatedByteOrderMarks(count: marks) }
        if bytes.starts(with: Array("HTTP/".utf8)), bytes.count > 6, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[bytes.startIndex + 5]) {
            let line = bytes.prefix { $0 != 0x0D && $0 != 0x0A }.prefix(80)
            return .httpResponse(statusLine: String(decoding: line, as: UTF8.self))
        }
        let text = bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard text.first == UInt8(ascii: "<") else { return nil }
        let lowered = String(decoding: text.prefix(4096), as: UTF8.self).lowercased()
        if lowered.hasPrefix("<?xml"), !lowered.contains("<html") { return .xml }
        guard ["<!doctype html", "<html", "<head", "<body", "<!--", "<?xml"].contains(where: { lowered.hasPrefix($0) }) else { return nil }
        return .html(title: title(in: String(decoding: text.prefix(4096), as: UTF8.self)))
    }

    /// What the regular file at `path` is, from its first bytes, when it is one of these (a
    /// FIFO or standard input is not read here: its bytes would be gone).
    package static func recognise(path: String) -> ForeignDocument? {
        var status = stat()
        guard path != FileByteSource.standardInput, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return recognise(Array((try? handle.read(upToCount: 4096)) ?? Data()))
    }

    /// The text of an HTML page's `<title>`, white space folded, at most 80 characters.
    private static func title(in page: String) -> String? {
        let lowered = page.lowercased()
        guard let open = lowered.range(of: "<title"), let close = lowered.range(of: "</title>", range: open.upperBound..<lowered.endIndex),
              let end = lowered[open.upperBound..<close.lowerBound].firstIndex(of: ">") else { return nil }
        let offset = lowered.distance(from: lowered.startIndex, to: end)
        let closeOffset = lowered.distance(from: lowered.startIndex, to: close.lowerBound)
        let characters = Array(page)
        guard offset + 1 <= closeOffset, closeOffset <= characters.count else { return nil }
        let text = String(characters[(offset + 1)..<closeOffset]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return text.isEmpty ? nil : String(text.prefix(80))
    }

    public var description: String {
        switch self {
        case .httpResponse(let statusLine):
            return "a saved HTTP response (\(statusLine), then its headers), not a document: save the body alone "
                + "(curl -o FILE, without -i), or give socload load the URL"
        case .html(let title):
            return "an HTML page\(title.map { " (\"\($0)\")" } ?? ""), not JSON or CSV: a portal's error or sign-in page? "
                + "The data is at /resource/ID.json or /api/views/ID/rows.json"
        case .xml:
            return "an XML document, not JSON or CSV"
        case .repeatedByteOrderMarks(let count):
            return "text that starts with \(count) UTF-8 byte order marks (converted \(count) times?): remove the extra ones to load it"
        }
    }
}
