import Foundation
import Glibc
import SocloadCore
import SocloadEngine
import SocloadTransport

/// A plain JSON document as a regular file that can be read twice: once to infer the types
/// from every value, once to load. A regular file is used where it is; a URL, standard input, a
/// FIFO or a process substitution is first copied to a temporary file (removed by `close()`),
/// so the types never depend on a sample.
package final class DocumentSpool {
    /// The file to read.
    package let path: String
    /// True when `path` is a temporary copy.
    package let isTemporary: Bool

    private init(path: String, isTemporary: Bool) {
        self.path = path
        self.isTemporary = isTemporary
    }

    /// True for an `http://` or `https://` source.
    package static func isURL(_ source: String) -> Bool {
        let lowered = source.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// The source as a readable regular file; `onSpool` is told before a copy is made.
    package static func open(_ source: String, http: HTTPOptions, retry: RetryPolicy, cancellation: LoadCancellation?,
                     onRetry: @escaping (HTTPError, Int, Double) -> Void, onSpool: () -> Void,
                     onBytes: (Int) -> Void) throws -> DocumentSpool {
        if !isURL(source), FileByteSource.size(of: source) != nil {
            return DocumentSpool(path: source, isTemporary: false)
        }
        // A path that is not there is said before any word of copying it.
        if !isURL(source), source != FileByteSource.standardInput, access(source, F_OK) != 0, errno == ENOENT {
            throw LoadError.fileNotFound(source)
        }
        onSpool()
        let (descriptor, path) = try TemporaryFile.make(prefix: "socload-spool")
        let spool = DocumentSpool(path: path, isTemporary: true)
        do {
            let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            if isURL(source) {
                let downloader = HTTPDownloader(options: http, cancellation: cancellation)
                try retry.run(cancellation: cancellation, onRetry: onRetry) {
                    try file.truncate(atOffset: 0)
                    try file.seek(toOffset: 0)
                    _ = try downloader.download(source) { chunk in
                        try file.write(contentsOf: Data(chunk))
                        onBytes(chunk.count)
                    }
                }
            } else {
                try FileByteSource.read(source, cancellation: cancellation) { chunk in
                    try file.write(contentsOf: Data(chunk))
                    onBytes(chunk.count)
                }
            }
            try file.close()
        } catch {
            spool.close()
            throw error
        }
        return spool
    }

    /// Removes the temporary copy, if there is one.
    package func close() {
        if isTemporary { unlink(path) }
    }
}
