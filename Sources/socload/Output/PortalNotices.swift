import Foundation
import SocloadSocrata

/// What the portals say beside the data (`PortalNotice`), passed on as warnings on standard
/// error: each distinct notice once a run (a refresh of a thousand datasets says it once), also
/// under `--quiet`, since a deprecation is a warning.
final class PortalNotices: @unchecked Sendable {
    // @unchecked Sendable: `said` is only touched under `lock`.
    private let lock = NSLock()
    private var said = Set<PortalNotice>()

    static let shared = PortalNotices()

    /// Reads a response's head for notices and says the new ones.
    func observe(_ head: HTTPResponseHead, url: String) {
        for notice in PortalNotice.notices(in: head, url: url) where notice.isForPeople {
            let isNew = lock.withLock { said.insert(notice).inserted }
            if isNew { StandardError.line("Warning: " + TerminalText.escaped(notice.description)) }
        }
    }
}
