import Glibc
import SocloadDatabase

/// A buffered writer to a file descriptor: output is written in large blocks, not line by line.
final class OutputSink {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(capacity)
    }

    deinit { flush() }

    /// True when the descriptor is a terminal (so output is for a person, not a pipe).
    var isTerminal: Bool { isatty(descriptor) != 0 }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    func write(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                break // The reader went away (EPIPE); nothing more can be written.
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Messages for the person running socload: errors, notices and progress go to standard error.
enum StandardError {
    static var isTerminal: Bool { isatty(2) != 0 }

    /// Every message passes through `CredentialRedaction`: no password in a URL reaches the terminal.
    static func write(_ text: String) {
        var bytes = Array(CredentialRedaction.text(text).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    static func line(_ text: String) {
        write(text + "\n")
    }
}
