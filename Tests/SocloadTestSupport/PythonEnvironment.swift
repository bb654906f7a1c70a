import Foundation
import XCTest

/// Python tools from PyPI the tests check socload's files with (feedparser, bagit, pyarrow,
/// DuckDB), each in a virtual environment under `.build`, made once.
public enum PythonEnvironment {
    /// The python of `.build/NAME` with `packages` installed (made on first use). Without PyPI
    /// the test is skipped, except on CI, where it fails.
    public static func python(named name: String, installing packages: [String]) throws -> String {
        let environment = Fixtures.packageRoot.appendingPathComponent(".build/" + name)
        let python = environment.appendingPathComponent("bin/python").path
        let marker = environment.appendingPathComponent(".installed").path
        if !FileManager.default.fileExists(atPath: marker) {
            let made = try ChildProcess.run("/usr/bin/python3", ["-m", "venv", environment.path])
            let installed = made.status == 0 ? try ChildProcess.run(python, ["-m", "pip", "install", "-q"] + packages) : made
            guard installed.status == 0 else {
                if ProcessInfo.processInfo.environment["CI"] == "true" {
                    XCTFail("\(packages.joined(separator: ", ")) could not be installed: \(installed.stderr)")
                }
                throw XCTSkip("\(packages.joined(separator: ", ")) could not be installed from PyPI: \(installed.stderr.prefix(200))")
            }
            FileManager.default.createFile(atPath: marker, contents: Data())
        }
        return python
    }

}
