import Foundation

/// What a program run by a test printed, and its exit status.
public struct SocloadRun: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        (self.status, self.stdout, self.stderr) = (status, stdout, stderr)
    }
}

/// Runs a program other than the socload under test (GDAL's clients, socload as another user)
/// and collects its exit status, standard output and standard error.
public enum ChildProcess {
    public static func run(_ executable: String, _ arguments: [String]) throws -> SocloadRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return SocloadRun(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
                          stderr: String(decoding: errors, as: UTF8.self))
    }
}
