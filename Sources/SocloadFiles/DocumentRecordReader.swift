import SocloadCore
import SocloadEngine
import SocloadTransport

/// Reads a document's records from chunks of bytes and hands each on as a JSON object
/// (`JSONRecordReader.Record`): a JSON document's own records, or a CSV file's rows made into
/// objects (`CSVRecordReader`), so that everything after reading is the same for both.
package protocol DocumentRecordReader: AnyObject {
    /// Takes the next chunk of the file.
    func feed(_ chunk: UnsafeRawBufferPointer) throws
    /// The end of the file: a record left open is an error, or is the last record.
    func finish() throws
}

extension JSONRecordReader: DocumentRecordReader {}
