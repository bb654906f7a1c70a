import SocloadCore
/// A growable byte buffer written through a raw pointer: the COPY data of one batch, built
/// without the per-append checks of an Array.
final class CopyBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1 << 20) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    func removeAll() {
        count = 0
    }

    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        let newCapacity = max(capacity * 2, needed)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func write<T: FixedWidthInteger>(_ value: T) {
        reserve(MemoryLayout<T>.size)
        UnsafeMutableRawPointer(base + count).storeBytes(of: value.bigEndian, as: T.self)
        count += MemoryLayout<T>.size
    }

    @inline(__always)
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// A field: its length, then its bytes.
    @inline(__always)
    func field(_ bytes: UnsafeBufferPointer<UInt8>) {
        write(UInt32(bytes.count))
        write(bytes)
    }

    func null() {
        write(UInt32(bitPattern: -1))
    }
}
