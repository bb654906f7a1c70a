/// What a load's change tracking tells once it is done: the rows it added, changed, removed
/// and left as they were (`RowChangeTracker` for a new copy, `SyncChangeTracker` for rows
/// upserted, `InPlaceRefresh` for a refresh that writes only what changed).
public protocol RowChangeCounting: AnyObject {
    /// nil until the load's rows are all counted, or when they are not.
    var counts: RowChangeCounts? { get }
}
