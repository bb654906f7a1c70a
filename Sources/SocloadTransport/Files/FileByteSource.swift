import SocloadCore
import Glibc

/// Reads a file in fixed-size chunks, so a file of any size costs one buffer of memory.
///
/// Any kind of file: a regular file, a FIFO, a process substitution (`<(cmd)`, a `/dev/fd/N`
/// pipe) or standard input (`-`). A read never blocks for long: the source waits for data with
/// `poll` in slices of 100 ms and checks the cancellation between them, so a FIFO with no writer,
/// or a writer that stalls mid-document, cannot keep a signal from stopping the load.
public enum FileByteSource {
    public static let chunkSize = 1 << 16
    /// The path that names standard input.
    public static let standardInput = "-"

    /// The file's size in bytes, when it is a regular file.
    public static func size(of path: String) -> Int64? {
        var info = stat()
        guard path != standardInput, stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    public static func read(_ path: String, cancellation: LoadCancellation?,
                     _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = try open(path)
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            try cancellation?.check()
            guard try waitForData(descriptor, path: path) else { continue }
            let count = Glibc.read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw LoadError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Reads the bytes `range` of a regular file, in chunks (a half of a document that two
    /// threads read at once).
    public static func read(_ path: String, bytes range: Range<Int64>, cancellation: LoadCancellation?,
                            _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = try open(path)
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            try cancellation?.check()
            let count = pread(descriptor, buffer.baseAddress, Int(min(Int64(chunkSize), range.upperBound - offset)), off_t(offset))
            if count < 0 {
                if errno == EINTR { continue }
                throw LoadError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += Int64(count)
        }
    }

    /// Opens the path without blocking (opening a FIFO for reading blocks until a writer comes,
    /// unless O_NONBLOCK), or duplicates standard input for `-`.
    private static func open(_ path: String) throws -> Int32 {
        let descriptor = path == standardInput ? dup(0) : Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw LoadError.fileNotFound(path) }
            throw LoadError.unreadableFile(path: path == standardInput ? "standard input" : path,
                                           reason: String(cString: strerror(errno)))
        }
        return descriptor
    }

    /// True once a read will not block (data, end of file or an error to report); false after
    /// 100 ms without any. A FIFO whose writer has not come yet is not ready: Linux reports its
    /// end only after a writer has come and gone.
    private static func waitForData(_ descriptor: Int32, path: String) throws -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, 100)
        if ready < 0 {
            if errno == EINTR { return false }
            throw LoadError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        return ready > 0
    }
}
