import Glibc

/// The distinct byte strings (or fixed-width numbers) of a column chunk, each with its index in order of first sight:
/// an open-addressing table over one arena, so a value is looked up without being copied.
struct ByteDictionary {
    private(set) var arena: [UInt8] = []
    /// Where each entry starts in `arena`, and one past the last's end.
    private(set) var starts: [Int] = [0]
    private var slots: [Int32] = Array(repeating: -1, count: 1024)

    /// Values of one width (numbers): PLAIN without a length before each.
    let fixedWidth: Bool

    init(fixedWidth: Bool = false) {
        self.fixedWidth = fixedWidth
    }

    var count: Int { starts.count - 1 }
    /// The memory the dictionary takes, as allocated.
    var allocatedBytes: Int { arena.capacity + 8 * starts.capacity + 4 * slots.capacity }
    /// The entries' PLAIN size (a 4-byte length each, then the bytes).
    var plainSize: Int { arena.count + (fixedWidth ? 0 : 4 * count) }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        // FNV-1a: stable and quick for the short strings dictionaries are for.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash)
    }

    private func equals(_ entry: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let (start, end) = (starts[entry], starts[entry + 1])
        guard end - start == bytes.count else { return false }
        return arena.withUnsafeBytes { arena in
            bytes.isEmpty || memcmp(arena.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0
        }
    }

    /// The index of `bytes`, added when new.
    mutating func index(of bytes: UnsafeRawBufferPointer) -> Int32 {
        if count * 2 >= slots.count { grow() }
        let mask = slots.count - 1
        var slot = Self.hash(bytes) & mask
        while true {
            let entry = slots[slot]
            if entry < 0 {
                slots[slot] = Int32(count)
                arena.append(contentsOf: bytes)
                starts.append(arena.count)
                return Int32(count - 1)
            }
            if equals(Int(entry), bytes) { return entry }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        arena.withUnsafeBytes { arena in
            for entry in 0..<count {
                let bytes = UnsafeRawBufferPointer(rebasing: arena[starts[entry]..<starts[entry + 1]])
                var slot = Self.hash(bytes) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(entry)
            }
        }
    }

    /// The dictionary page's values, PLAIN.
    func plain() -> [UInt8] {
        if fixedWidth { return arena }
        var output: [UInt8] = []
        output.reserveCapacity(plainSize)
        for entry in 0..<count {
            let length = UInt32(starts[entry + 1] - starts[entry])
            output.appendLittleEndian(length)
            output += arena[starts[entry]..<starts[entry + 1]]
        }
        return output
    }
}
