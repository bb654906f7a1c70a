import Foundation
import SocloadTestSupport
import XCTest

/// The real GIS clients the GeoPackage tests check a file with: GDAL's `ogrinfo` (Debian's
/// `gdal-bin`) and GDAL's GeoPackage validator (`validate_gpkg.py`, Debian's `python3-gdal`),
/// both installed by `make test`. Without them a test is skipped, except under CI (`CI=true`),
/// where their absence fails it.
enum GISClient {
    static let ogrinfo = "/usr/bin/ogrinfo"
    static let validators = ["/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py",
                             "/usr/share/doc/python3-gdal/examples/validate_gpkg.py"]

    static func requireClients() throws {
        let present = FileManager.default.isExecutableFile(atPath: ogrinfo) && validator != nil
        if !present {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("gdal-bin and python3-gdal are missing (make test installs them)")
            }
            throw XCTSkip("gdal-bin and python3-gdal are not installed")
        }
    }

    static var validator: String? { validators.first { FileManager.default.fileExists(atPath: $0) } }

    static func run(_ executable: String, _ arguments: [String]) throws -> SocloadRun {
        try ChildProcess.run(executable, arguments)
    }

    /// `ogrinfo -so -al FILE`: each layer's summary, by layer name, after reading every feature
    /// of every layer (`ogrinfo -al -q`) without a warning.
    static func layers(of file: String) throws -> [String: String] {
        let read = try run(ogrinfo, ["-al", "-q", file])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.stderr, "", "GDAL read every feature without a word")
        let run = try run(ogrinfo, ["-so", "-al", file])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse((run.stdout + run.stderr).contains("Warning"), run.stdout + run.stderr)
        XCTAssertFalse((run.stdout + run.stderr).contains("ERROR"), run.stdout + run.stderr)
        var layers: [String: String] = [:]
        for block in run.stdout.components(separatedBy: "\nLayer name: ").dropFirst() {
            let name = String(block.prefix { $0 != "\n" })
            layers[name] = block
        }
        return layers
    }

    /// `ogrinfo FILE -sql SQL`: the values GDAL reads back, one `name (Type) = value` line each.
    static func sql(_ sql: String, file: String) throws -> [String] {
        let run = try run(ogrinfo, [file, "-sql", sql])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("ERROR"), run.stderr)
        return run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains(") = ") || ["POINT", "LINESTRING", "POLYGON", "MULTI"].contains(where: $0.hasPrefix) }
    }

    /// GDAL's validator on the file: its output when it fails, nil when it passes.
    static func validationFailure(_ file: String) throws -> String? {
        let run = try run("/usr/bin/python3", [try XCTUnwrap(validator), file])
        return run.status == 0 ? nil : run.stdout + run.stderr
    }
}
