import Foundation
import SocloadSocrata

extension DatasetFetch {
    /// `Refreshed t: 12 added, 3 changed, 5 removed, 9,980 unchanged`, when the rows were counted.
    static func reportRowChanges(_ summary: LoadSummary, session: LoadSetup.Session) {
        guard let changes = summary.rowChanges else { return }
        session.inform("Refreshed \(TerminalText.escaped(summary.tableName)): \(changes.summary)")
    }

    /// One line per column that had cells not of its type, under the summary.
    static func reportInvalidCells(_ cells: [InvalidCells]) {
        for column in cells {
            StandardError.line(SocloadTool.oneLine(column.summary))
        }
    }

    /// `--datasets`, else `$SOCLOAD_DATASETS`, else `./Datasets` and the copy installed beside the binary.
    static func datasetsDirectories(_ option: String?, _ environment: [String: String]) -> [String] {
        if let directory = option ?? environment["SOCLOAD_DATASETS"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return [directory]
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/socload/Datasets").path
        return ["Datasets", installed]
    }
}
