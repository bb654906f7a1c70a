import SocloadCore
import CPostgreSQL
import Foundation

/// libpq's cancel request object, usable from any thread.
final class PostgreSQLCanceller: @unchecked Sendable {
    private let lock = NSLock()
    private var handle: OpaquePointer?
    private var requested = false

    var isRequested: Bool {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }

    func clear() {
        lock.lock()
        requested = false
        lock.unlock()
    }

    init(_ handle: OpaquePointer?) {
        self.handle = handle
    }

    func cancel() {
        lock.lock()
        defer { lock.unlock() }
        requested = true
        guard let handle else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = PQcancel(handle, &buffer, Int32(buffer.count))
    }

    deinit {
        if let handle { PQfreeCancel(handle) }
    }
}
