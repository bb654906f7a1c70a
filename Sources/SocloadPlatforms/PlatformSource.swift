import SocloadCore

/// One platform's dataset, as the platform job reads it: first its description (a plan's worth
/// of typed columns, the rows it counts, when its data last changed), then its records into a
/// spool, page after page. A new platform is one new `PlatformSource`.
protocol PlatformSource {
    /// The dataset's description, from the platform's metadata alone (no row is read).
    func describe() throws -> PlatformRows
    /// Every record of the described dataset (at most `limit`) into `spool`, one JSON object a
    /// line, with the fields of `description`; returns notes about the records (a coordinate
    /// order read the old way, say). `progress` hears of the records written so far.
    func writeRecords(of description: PlatformDescription, into spool: RecordSpool, limit: Int?,
                      progress: (Int) -> Void) throws -> [String]
}

/// What a platform says its dataset's rows are: a table it serves through its API (described
/// here), or only a file (a CKAN resource outside the DataStore), loaded as `socload load`
/// loads a document, its types inferred.
enum PlatformRows {
    case described(PlatformDescription)
    /// The file's URL, the table's default name and the refresh signal.
    case file(url: String, tableName: String, dataUpdatedAt: String?)
}
