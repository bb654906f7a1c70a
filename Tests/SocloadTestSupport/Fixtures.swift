import Foundation

/// Paths to the project's bundled datasets and to the shared real-world exports beside it.
public enum Fixtures {
    /// The package root, found from this source file's location.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var datasetsDirectory: URL { packageRoot.appendingPathComponent("Datasets") }

    public static let bundledIDs = ["n5m4-mism", "ci7y-pmts", "geo5-shps"]

    public static func bundled(_ id: String) throws -> [UInt8] {
        Array(try Data(contentsOf: datasetsDirectory.appendingPathComponent("\(id).json")))
    }

    /// `../shared/datasets`, when it exists (it is not part of the repository).
    public static var sharedDatasets: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
