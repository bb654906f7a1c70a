import Foundation

// socload-datasets [DIRECTORY]          writes the bundled sample datasets (default: Datasets)
// socload-datasets bench N [DIRECTORY]  writes the benchmark dataset of N rows (default: bench/data)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "bench" {
        guard arguments.count >= 2, let count = Int(arguments[1]), count >= 0 else {
            FileHandle.standardError.write(Data("usage: socload-datasets bench N [DIRECTORY]\n".utf8))
            exit(64)
        }
        let directory = arguments.count > 2 ? arguments[2] : "bench/data"
        try BenchmarkDataset.write(rows: count, to: directory)
        print("wrote \(directory)/bench-\(count).rows.json, .csv and .schema.sql")
    } else {
        let directory = arguments.first ?? "Datasets"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (file, text) in SampleDatasets.all() {
            let path = (directory as NSString).appendingPathComponent(file)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            print("wrote \(path)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("socload-datasets: \(error)\n".utf8))
    exit(74)
}
