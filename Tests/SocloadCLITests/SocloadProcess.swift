import Foundation
import SocloadTestSupport
import XCTest

/// Runs the built `socload` binary and captures what it printed (`SocloadRun`).
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

extension SocloadProcess {
    /// Runs socload paused at `step` (`SOCLOAD_TEST_PAUSE_AT`) and kills it there with SIGKILL;
    /// what it said before, and whether it got there (false: it ended first, or a minute passed).
    static func killed(_ arguments: [String], at step: String, directory: URL? = nil) throws -> (said: String, reached: Bool) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SOCLOAD_TEST_PAUSE_AT"] = step
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        var said = Data()
        let deadline = Date().addingTimeInterval(60)
        while !String(decoding: said, as: UTF8.self).contains("paused at \(step)"), process.isRunning, Date() < deadline {
            said.append(errors.fileHandleForReading.availableData)
        }
        let reached = process.isRunning && String(decoding: said, as: UTF8.self).contains("paused at \(step)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return (String(decoding: said, as: UTF8.self), reached && process.terminationReason == .uncaughtSignal)
    }
}
