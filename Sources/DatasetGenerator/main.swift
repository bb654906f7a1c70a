import Foundation

// Writes the bundled sample datasets: `socload-datasets [DIRECTORY]` (default: Datasets).
let directory = CommandLine.arguments.dropFirst().first ?? "Datasets"
do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (file, text) in SampleDatasets.all() {
        let path = (directory as NSString).appendingPathComponent(file)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        print("wrote \(path)")
    }
} catch {
    FileHandle.standardError.write(Data("socload-datasets: \(error)\n".utf8))
    exit(74)
}
