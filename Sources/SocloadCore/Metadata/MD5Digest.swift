import Foundation

/// The MD5 digest of bytes, as 32 lowercase hexadecimal digits (RFC 1321): what PostgreSQL's
/// `md5(text)` gives for the same UTF-8 text, so a long text kept on the server (a table's
/// comment) can be compared with one socload recorded without being read back. Not for
/// security: a fingerprint of descriptions.
public enum MD5Digest {
    /// The digest of a text's UTF-8 bytes.
    public static func hex(of text: String) -> String {
        var text = text
        return text.withUTF8 { hex(of: UnsafeRawBufferPointer($0)) }
    }

    /// The digest of `bytes`.
    public static func hex(of bytes: UnsafeRawBufferPointer) -> String {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
        let wholeBlocks = bytes.count / 64
        for block in 0..<wholeBlocks {
            compress(&state, UnsafeRawBufferPointer(rebasing: bytes[(block * 64)..<(block * 64 + 64)]))
        }
        // The tail, a 1 bit, zeros and the length in bits, in one or two blocks.
        var tail = [UInt8](bytes[(wholeBlocks * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBytes { tailBytes in
            for start in stride(from: 0, to: tailBytes.count, by: 64) {
                compress(&state, UnsafeRawBufferPointer(rebasing: tailBytes[start..<(start + 64)]))
            }
        }
        return [state.0, state.1, state.2, state.3].map { word in
            (0..<4).map { index in
                let byte = UInt8(truncatingIfNeeded: word >> UInt32(index * 8))
                return String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
            }.joined()
        }.joined()
    }

    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]

    /// floor(abs(sin(i + 1)) * 2^32), as RFC 1321 defines them.
    private static let constants: [UInt32] = (0..<64).map { index in
        UInt32(truncatingIfNeeded: Int64((abs(sin(Double(index + 1))) * 4_294_967_296).rounded(.down)))
    }

    private static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawBufferPointer) {
        var (a, b, c, d) = state
        for round in 0..<64 {
            var f: UInt32
            let g: Int
            switch round {
            case 0..<16: f = (b & c) | (~b & d); g = round
            case 16..<32: f = (d & b) | (~d & c); g = (5 &* round &+ 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 &* round &+ 5) % 16
            default: f = c ^ (b | ~d); g = (7 &* round) % 16
            }
            f = f &+ a &+ constants[round] &+ UInt32(littleEndian: block.loadUnaligned(fromByteOffset: g * 4, as: UInt32.self))
            a = d
            d = c
            c = b
            b = b &+ ((f << shifts[round]) | (f >> (32 - shifts[round])))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
