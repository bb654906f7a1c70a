import Dispatch
import SocloadSocrata

/// Progress of a load on standard error, redrawn in place at most ten times a second: bytes (of
/// the total when known), rows, rows/s and, with a known total, the time left. Only for a terminal.
final class ProgressMeter: @unchecked Sendable {
    // @unchecked Sendable: the loader calls `report` from the database queue only, one call at a
    // time; `clear` is called after the load has returned. No two threads touch the state at once.
    private let enabled: Bool
    private var lastDraw: UInt64 = 0
    private var drawn = false

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func report(_ progress: LoadProgress) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw >= 100_000_000 else { return }
        lastDraw = now
        var line = NumberText.bytes(progress.bytesRead)
        if let total = progress.bytesExpected, total > 0 { line += " of " + NumberText.bytes(total) }
        line += "  \(NumberText.grouped(progress.rowsLoaded)) rows"
        if progress.elapsed > 0 {
            line += "  \(NumberText.grouped(Int(Double(progress.rowsLoaded) / progress.elapsed))) rows/s"
            if let total = progress.bytesExpected, total > 0, progress.bytesRead > 0, progress.bytesRead < total {
                let remaining = progress.elapsed * Double(total - progress.bytesRead) / Double(progress.bytesRead)
                line += "  ETA " + NumberText.seconds(remaining)
            }
        }
        StandardError.write("\r\u{1B}[K" + line)
        drawn = true
    }

    func clear() {
        if drawn { StandardError.write("\r\u{1B}[K") }
        drawn = false
    }
}
