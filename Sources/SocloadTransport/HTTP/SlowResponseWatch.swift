import Dispatch

/// Tells a response that is only waited for: past its first half second, less than 256 KiB a second
/// of it has come (a server still working out a query, a body that trickles). The thread then
/// lends what it lends (`WaitLending.lendUntilDone`, a batch's job slot) until the transfer ends,
/// so a slow portal holds no other dataset up; a download that streams at network speed never
/// lends, so the portal sees no more requests at once than the batch's jobs but for slow ones.
struct SlowResponseWatch {
    static let patienceNanoseconds: UInt64 = 500_000_000
    static let bytesPerSecond: UInt64 = 256 * 1024

    private let start = DispatchTime.now().uptimeNanoseconds
    private var takeBack: (() -> Void)?
    private var lent = false

    /// Called as the transfer goes (libcurl's progress callback, at least once a second) with the
    /// bytes received so far.
    mutating func observe(received: Int64) {
        guard !lent else { return }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        guard elapsed >= Self.patienceNanoseconds,
              UInt64(max(received, 0)) * 1_000_000_000 < Self.bytesPerSecond * elapsed else { return }
        lent = true
        takeBack = WaitLending.lendUntilDone()
    }

    /// The transfer ended: what was lent is taken back.
    mutating func end() {
        takeBack?()
        takeBack = nil
    }
}
