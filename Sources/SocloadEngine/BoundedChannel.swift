import SocloadCore
import Foundation

/// A queue of bounded length between one producing and one consuming thread: the producer waits
/// when it is full, so memory stays flat however fast the input arrives.
final class BoundedChannel<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written only while `condition` is held.
    private let condition = NSCondition()
    private var items: [Element?] = []
    private var head = 0
    private let capacity: Int
    private var isClosed = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Blocks while the channel is full. Returns false when the consumer has closed it.
    func send(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity, !isClosed { condition.wait() }
        guard !isClosed else { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The next element, or nil when none arrived within `timeout` seconds.
    func receive(timeout: Double) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while items.count - head == 0 {
            guard condition.wait(until: deadline) else { return nil }
        }
        let element = items[head]
        items[head] = nil // release it now: a consumed batch must not stay in memory
        head += 1
        if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return element
    }

    /// The consumer gives up: waiting and future sends return at once.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }
}
