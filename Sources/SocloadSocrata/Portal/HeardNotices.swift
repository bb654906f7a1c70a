import Synchronization
import SocloadCore

/// The portal notices (`PortalNotice`) one load heard, each once, in the order heard — kept in
/// the refresh log (`RefreshRecord.notices`), also those not printed (the deprecation of the
/// `X-SODA2-Fields` headers). A loader runs one load at a time, so it keeps one of these and
/// clears it when a load starts.
final class HeardNotices: Sendable {
    private let heard = Mutex<[String]>([])

    /// Reads a response's head for notices (called on whatever thread downloads).
    func observe(_ head: HTTPResponseHead, url: String) {
        let notices = PortalNotice.notices(in: head, url: url).map(\.description)
        guard !notices.isEmpty else { return }
        heard.withLock { heard in
            for notice in notices where !heard.contains(notice) { heard.append(notice) }
        }
    }

    /// What was heard since the last `clear`.
    var notices: [String] { heard.withLock { $0 } }

    func clear() { heard.withLock { $0.removeAll() } }
}
