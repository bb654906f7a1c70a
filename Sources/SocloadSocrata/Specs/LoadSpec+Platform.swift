import SocloadCore
import SocloadPlatforms

extension LoadSpec {
    /// The options a dataset of CKAN, ArcGIS or OpenDataSoft cannot take: SODA's and the sync's.
    /// The load of a CKAN, ArcGIS or OpenDataSoft dataset this spec names, when its URL (or
    /// `platform`) says it is one; nil for a Socrata dataset, a file or a document. A URL that
    /// `platform` does not take is a `PlatformError`; a Socrata option with such a dataset a
    /// `LoadSpecError` naming it. (A portal's `domain` and the bundled `datasets` folder, which a
    /// project's defaults may give every entry, are for dataset ids and do not apply to a URL.)
    package func platformRequest() throws -> PlatformFetchJob.Request? {
        guard case .dataset(let text) = source, let locator = try PlatformLocator(url: text, platform: platform) else { return nil }
        let given: [(String, Bool)] = [
            ("where", query.where != nil), ("select", query.select != nil), ("order", query.order != nil), ("api", api != .auto),
            ("incremental", incremental), ("incremental-above", incrementalAbove != nil), ("cache", cache != nil),
            ("keep-versions", keepVersions != nil), ("system-columns", includeSystemColumns), ("max-rows", maxRows != nil)]
        if let key = given.first(where: \.1)?.0 {
            throw LoadSpecError(key: key, problem: "is for Socrata datasets; \(text) is \(locator.platform == .ods ? "an" : "a") "
                                + "\(locator.platform.displayName) dataset")
        }
        var request = PlatformFetchJob.Request(url: text, locator: locator)
        request.tableName = tableName
        request.tableOptions = tableOptions
        request.force = force
        request.limit = limit
        request.pageSize = pageSize == LoadSpec.defaultPageSize ? nil : pageSize
        return request
    }
}
