import Foundation
import SocloadCore
import XCTest

/// What a killed process left behind is removed by the next one; what a running one holds is not.
final class AbandonedFilesTests: XCTestCase {
    func testOnlyTheFilesOfProcessesThatAreGoneAreRemoved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("abandoned-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A process that ran and ended: its id names no running process now.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let gone = ended.processIdentifier
        let names = ["socload-pages-\(gone)-A", "socload-pages-\(getpid())-B", "socload-pages-1-C", "other-\(gone)",
                     "socload.lock.socload-\(gone)"]
        for name in names {
            try FileManager.default.createDirectory(atPath: (directory as NSString).appendingPathComponent(name),
                                                    withIntermediateDirectories: true)
        }
        AbandonedFiles.remove(in: directory, prefix: "socload-pages-")
        AbandonedFiles.remove(in: directory, prefix: "socload.lock.socload-")
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: directory)),
                       ["socload-pages-\(getpid())-B", "socload-pages-1-C", "other-\(gone)"],
                       "this process's and a running one's (init, 1) stay; another prefix is not looked at")
    }
}
