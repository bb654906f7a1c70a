import Glibc

/// Reads a file in fixed-size chunks, so a file of any size costs one buffer of memory.
enum FileByteSource {
    static let chunkSize = 1 << 16

    /// The file's size in bytes, when it can be known.
    static func size(of path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    static func read(_ path: String, cancellation: LoadCancellation?,
                     _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw LoadError.fileNotFound(path) }
            throw LoadError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            try cancellation?.check()
            let count = Glibc.read(descriptor, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw LoadError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
