import Foundation
import SocloadTestSupport
import XCTest

/// Runs each example in a temporary working directory that has the bundled `Datasets`, so that
/// `socload.sqlite` and `Datasets` mean what the examples say, and nothing is left behind.
class ExampleTestCase: XCTestCase {
    private var directory: URL!
    private var previousDirectory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("socload-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("Datasets"),
                                                   withDestinationURL: Fixtures.datasetsDirectory)
        previousDirectory = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(directory.path)
    }

    override func tearDown() {
        _ = FileManager.default.changeCurrentDirectoryPath(previousDirectory)
        try? FileManager.default.removeItem(at: directory)
    }
}
