/// A caller that imports SocloadSocrata also sees the plan, the values and the roles it is
/// written in terms of (they moved to SocloadCore; code written before keeps compiling), and the
/// transport it is configured with (`HTTPOptions`, `RetryPolicy`, `DownloadCache`: they moved to
/// SocloadTransport), what a load reports (`LoadSummary`, `LoadProgress`: SocloadEngine), and the file sources
/// (`DocumentFormat`, `CSVDialect`, `DocumentError`: SocloadFiles).
@_exported import SocloadCore
@_exported import SocloadEngine
@_exported import SocloadFiles
@_exported import SocloadTransport
