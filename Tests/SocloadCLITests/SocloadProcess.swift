import Foundation
import XCTest

/// Runs the built `socload` binary and captures what it printed.
struct SocloadRun {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum SocloadProcess {
    /// The `socload` executable next to the test bundle, or `$SOCLOAD_BIN`.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["SOCLOAD_BIN"] {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("socload")
    }

    /// Runs socload with `arguments`, or `through` another program (`timeout`) that runs it.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:],
                    directory: URL? = nil, stdin: Data? = nil, through program: URL? = nil) throws -> SocloadRun {
        let process = Process()
        process.executableURL = program ?? executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["SOCLOAD_DB", "SOCLOAD_DOMAIN", "SOCLOAD_DATASETS", "SOCRATA_APP_TOKEN", "SOCLOAD_CREDENTIALS"] { env[key] = nil }
        // Never the credentials file of the user who runs the tests.
        env["XDG_CONFIG_HOME"] = "/nonexistent/socload-tests"
        env.merge(environment) { $1 }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full pipe never blocks the child.
        let errorData = LockedData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            errorData.set(err.fileHandleForReading.readDataToEndOfFile())
        }
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return SocloadRun(status: process.terminationStatus,
                          stdout: String(decoding: outputData, as: UTF8.self),
                          stderr: String(decoding: errorData.get(), as: UTF8.self))
    }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}

/// A temporary directory removed when the test ends.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("socload-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
