import Foundation
import SocloadToolKit

// socload-datasets [DIRECTORY]          writes the bundled sample datasets (default: Datasets)
// socload-datasets bench N [DIRECTORY] [--shape new|legacy] [--sorted-ids]
//                                       writes the benchmark dataset of N rows (default: bench/data)
// socload-datasets serve-soda BASE      serves BASE.soda.ndjson as SODA 2.1 pages on 127.0.0.1
// socload-datasets serve-platforms BASE serves BASE.soda.ndjson as CKAN, ArcGIS and OpenDataSoft answer
// socload-datasets serve-portal N [SCALE] serves a simulated portal of N datasets (SimulatedPortal)
let usage = """
    usage: socload-datasets [DIRECTORY]       write the bundled sample datasets (default: Datasets)
           socload-datasets bench N [DIRECTORY] [--shape new|legacy] [--sorted-ids]
                                             write the benchmark dataset of N rows (default: bench/data)
           socload-datasets serve-soda BASE  serve BASE.soda.ndjson as SODA 2.1 pages on 127.0.0.1
           socload-datasets serve-platforms BASE
                                             serve BASE.soda.ndjson as CKAN, ArcGIS and OpenDataSoft do on 127.0.0.1
           socload-datasets serve-portal N [SCALE]
                                             serve a simulated portal of N datasets (rows times SCALE) on 127.0.0.1

    """
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "-h" || arguments.first == "--help" || arguments.first == "help" {
    print(usage, terminator: "")
    exit(0)
}
if let option = arguments.first, option.hasPrefix("-") {
    FileHandle.standardError.write(Data("socload-datasets: unknown option '\(option)'\n\(usage)".utf8))
    exit(64)
}
do {
    if arguments.first == "serve-soda", arguments.count == 2 {
        try SODABenchPortal.serve(base: arguments[1])
    } else if arguments.first == "serve-platforms", arguments.count == 2 {
        try PlatformBenchPortal.serve(base: arguments[1])
    } else if arguments.first == "serve-portal", arguments.count == 2 || arguments.count == 3, let count = Int(arguments[1]), count > 0,
              let scale = arguments.count == 3 ? Double(arguments[2]) : 1, scale > 0 {
        let portal = try SimulatedPortal(count: count, scale: scale)
        FileHandle.standardOutput.write(Data((portal.baseURL + "\n").utf8))
        while true { sleep(3600) }
    } else if arguments.first == "bench" {
        var shape = BenchmarkDataset.Shape.new
        if let flag = arguments.firstIndex(of: "--shape"), flag + 1 < arguments.count,
           let value = BenchmarkDataset.Shape(rawValue: arguments[flag + 1]) {
            shape = value
            arguments.removeSubrange(flag...flag + 1)
        }
        let sortedIDs = arguments.contains("--sorted-ids")
        arguments.removeAll { $0 == "--sorted-ids" }
        guard arguments.count >= 2, !arguments.contains("--shape"), let count = Int(arguments[1]), count >= 0 else {
            FileHandle.standardError.write(Data("usage: socload-datasets bench N [DIRECTORY] [--shape new|legacy] [--sorted-ids]\n".utf8))
            exit(64)
        }
        let directory = arguments.count > 2 ? arguments[2] : "bench/data"
        let base = try BenchmarkDataset.write(rows: count, to: directory, shape: shape, sortedIDs: sortedIDs)
        print("wrote \(base).rows.json, .csv and .schema.sql")
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
