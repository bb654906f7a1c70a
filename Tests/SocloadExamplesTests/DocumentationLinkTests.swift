import Foundation
import SocloadTestSupport
import XCTest

/// Every link between the README and the docs reaches a file that exists and, with a `#part`, a
/// heading of that file: the pages were split apart, and a link that points nowhere is a dead end
/// for the reader who followed it.
final class DocumentationLinkTests: XCTestCase {
    static let pages = ["README.md", "CHANGELOG.md", "docs/guide.md", "docs/cli.md", "docs/library.md", "docs/design.md",
                        "docs/performance.md"]

    func testEveryLinkBetweenThePagesReachesAFileAndAHeading() throws {
        let root = Fixtures.packageRoot
        var headings: [String: Set<String>] = [:]
        for page in Self.pages {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            headings[page] = Set(text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { Self.anchor(String($0)) })
        }
        var checked = 0
        for page in Self.pages {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            let prose = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
            for link in Self.links(in: prose) where !link.contains("://") && !link.hasPrefix("mailto:") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? page : Self.resolve(parts[0], from: page)
                XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent(target).path),
                              "\(page): \(link) reaches no file")
                if parts.count == 2, let known = headings[target] {
                    XCTAssertTrue(known.contains(parts[1]), "\(page): \(link) reaches no heading of \(target)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 20)
    }

    /// `link` from the folder of `page`, as a path from the package's root (`..` resolved).
    static func resolve(_ link: String, from page: String) -> String {
        var components = page.split(separator: "/").dropLast().map(String.init)
        for component in link.split(separator: "/").map(String.init) {
            if component == ".." { _ = components.popLast() } else if component != "." { components.append(component) }
        }
        return components.joined(separator: "/")
    }

    /// The targets of `[text](target)` links.
    static func links(in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            let target = String(after[..<close])
            if !target.contains(" ") { found.append(target) }
            rest = after[close...]
        }
        return found
    }

    /// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        let text = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
        return String(text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " " }
            .map(Character.init)).replacingOccurrences(of: " ", with: "-")
    }
}
