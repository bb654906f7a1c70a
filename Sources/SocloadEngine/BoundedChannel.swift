import SocloadCore
import Foundation

/// A queue of bounded length between one producing and one consuming thread: the producer waits
/// when it is full, so memory stays flat however fast the input arrives.
package final class BoundedChannel<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written only while `condition` is held.
    private let condition = NSCondition()
    private var items: [Element?] = []
    private var head = 0
    private let capacity: Int
    private var isClosed = false
    private var doneSending = false

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Blocks while the channel is full. Returns false when the consumer has closed it.
    package func send(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity, !isClosed { condition.wait() }
        guard !isClosed else { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The next element, or nil when none arrived within `timeout` seconds.
    package func receive(timeout: Double) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while items.count - head == 0 {
            guard !doneSending, condition.wait(until: deadline) else { return nil }
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

    /// The producer is done: the consumer, once it has taken every element, sees
    /// `isClosedForSending` (a wait for more returns at once).
    package func finishSending() {
        condition.lock()
        doneSending = true
        condition.broadcast()
        condition.unlock()
    }

    /// True once the producer finished and every element was taken.
    package var isClosedForSending: Bool {
        condition.lock()
        defer { condition.unlock() }
        return doneSending && items.count - head == 0
    }

    /// The consumer gives up: waiting and future sends return at once.
    package func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }
}
