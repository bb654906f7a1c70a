import SocloadCore

/// Where a load's rows come from: a rows.json export, one SODA page, a JSON, NDJSON or CSV
/// document. A source reads its input on a thread of its own (`RowPipeline` starts it) and sends
/// what it reads through `output`: what it learned before the rows (`describe`), then the rows in
/// batches (`send`), and returns what it knows once every row is read. A new input (another
/// portal's API, another file format) is one new `RowSource`; the jobs that load it stay as
/// they are.
///
/// A source checks `output.cancellation` as it reads, and lets `RowSourceOutput.Stopped` (the
/// load no longer listens) and its own failures propagate: the pipeline hands a failure to the
/// load's thread and ends quietly when stopped.
public protocol RowSource: Sendable {
    /// What the source learns before its rows (a plan and the description it came from), if anything.
    associatedtype Description: Sendable = Never
    /// What the source knows once every row is read (cells not of their type, the response's head...).
    associatedtype Ending: Sendable

    /// Reads the input, sending its description and batches through `output`; returns the ending.
    func produce(into output: RowSourceOutput<Self>) throws -> Ending
}

/// What a source's load receives, in order: at most one description, batches, one end.
public enum RowSourceEvent<Source: RowSource>: Sendable {
    case described(Source.Description)
    /// Rows of the plan table at `table` (0: the main table; child and glue tables follow), with
    /// how far into the input the source has read.
    case batch(table: Int, RowBatch, bytesRead: Int64, bytesExpected: Int64?)
    case end(Source.Ending)
}
