import Foundation
import SocloadTestSupport
import XCTest

/// The layout the docs draw (`docs/design.md`, `docs/library.md`), checked against the code: the targets' dependencies and the
/// modules each library imports.
final class LayoutTests: XCTestCase {
    /// The library guide's `Package.swift` lines for an app name this package and its products as
    /// `Package.swift` does, so a new user does not guess them from an error.
    func testTheLibraryGuidesDependencyLinesNameThePackageAndItsProducts() throws {
        let root = Fixtures.packageRoot
        let readme = try String(contentsOf: root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let packageName = try XCTUnwrap(manifest.range(of: "name: \"").map { manifest[$0.upperBound...].prefix { $0 != "\"" } })
        let products = manifest.components(separatedBy: ".library(name: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        let named = readme.components(separatedBy: ".product(name: \"").dropFirst().map { rest -> (String, String) in
            let product = String(rest.prefix { $0 != "\"" })
            let package = rest.components(separatedBy: "package: \"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) } ?? ""
            return (product, package)
        }
        XCTAssertEqual(named.map(\.0), ["SocloadKit"], "an app depends on the umbrella")
        for product in products where product != "SocloadKit" {
            XCTAssertTrue(readme.contains("`\(product)`"), "the guide says what became of the product \(product)")
        }
        for (product, package) in named {
            XCTAssertEqual(package, String(packageName), product)
            XCTAssertTrue(products.contains(product), "\(product) is no library product of Package.swift (\(products))")
        }
        XCTAssertTrue(readme.contains(".package(path: \"../socload\")"))
    }

    /// The design page's layout table says what each library depends on exactly as `Package.swift`
    /// declares it, so the drawing cannot drift from the code; every library target is drawn.
    func testTheDesignPagesLayoutTableIsThePackagesDependencies() throws {
        let manifest = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let drawn = try Self.drawnLayout()
        let libraries = manifest.components(separatedBy: ".target(name: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            .filter { $0.hasPrefix("Socload") && $0 != "SocloadToolKit" && $0 != "SocloadTestSupport" }
        XCTAssertEqual(Set(drawn.keys), Set(libraries))
        XCTAssertGreaterThanOrEqual(drawn.count, 6)
        for (library, modules) in drawn {
            let declaration = try XCTUnwrap(manifest.range(of: ".target(name: \"\(library)\""), library)
            let rest = manifest[declaration.upperBound...]
            let end = try XCTUnwrap(rest.range(of: ")"))
            let declared = rest[..<end.lowerBound]
            let dependencies = declared.range(of: "[").map { open in
                declared[open.upperBound...].prefix { $0 != "]" }.split(separator: ",")
                    .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"\n")) }
            } ?? []
            XCTAssertEqual(Set(dependencies), modules, library)
        }
    }

    /// The import graph runs one way, as the layout table of `docs/design.md` draws it: each
    /// library imports only the modules the table says it depends on, so the core stays free of C,
    /// PostgreSQL of SQLite, and the transport of Socrata.
    func testEachLibraryImportsOnlyTheModulesBelowIt() throws {
        for (library, modules) in try Self.drawnLayout() {
            let folder = Fixtures.packageRoot.appendingPathComponent("Sources/\(library)")
            let files = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            XCTAssertFalse(files.isEmpty, library)
            for file in files where file.hasSuffix(".swift") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in source.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@_exported import ")
                    || line.hasPrefix("@testable import ") {
                    let module = String(line.split(separator: " ").last ?? "")
                    let isShim = module.first == "C" && (module.dropFirst().first?.isUppercase ?? false)
                    guard module.hasPrefix("Socload") || isShim else { continue }
                    XCTAssertTrue(modules.contains(module), "\(library)/\(file) imports \(module)")
                }
            }
        }
    }

    /// The layout table of `docs/design.md`: each library and the modules it may depend on.
    private static func drawnLayout() throws -> [String: Set<String>] {
        let design = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/design.md"), encoding: .utf8)
        var drawn: [String: Set<String>] = [:]
        for line in design.split(separator: "\n") where line.hasPrefix("| `Socload") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, !cells[0].contains("/") else { continue }
            let modules = cells[1] == "nothing (no C)" ? [] : cells[1].split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
            }
            drawn[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = Set(modules)
        }
        return drawn
    }

    /// Files hold one main type and stay short enough to read whole: no Swift file of the
    /// package (sources, tools, tests) is over 300 lines.
    func testNoSwiftFileIsOver300Lines() throws {
        let root = Fixtures.packageRoot
        var checked = 0
        for folder in ["Sources", "Tools", "Tests"] {
            let base = root.appendingPathComponent(folder)
            let files = try XCTUnwrap(FileManager.default.enumerator(atPath: base.path)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                let source = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
                let lines = source.split(separator: "\n", omittingEmptySubsequences: false).count - (source.hasSuffix("\n") ? 1 : 0)
                XCTAssertLessThanOrEqual(lines, 300, "\(folder)/\(file)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }
}
